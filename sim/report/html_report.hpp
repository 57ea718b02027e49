#pragma once
/** @file html_report.hpp
 *  @brief `compare --html` and `reproduce --html`: one self-contained HTML file (inline CSS, inline SVG, no script,
 *  no external asset) with the methods' table and, per method, a picture of its placement: regions as boxes, hosts
 *  inside, each GPU a cell coloured by its rank's pipeline stage and labelled with its stage, replica and tensor
 *  index (computed from the job's parallel plan, sim/workload/plan.hpp). Built from the JSON reports
 *  (compare_runner.hpp's report_to_json, reproduce_summary.hpp's reproduce_json) and the scenarios they ran on. The
 *  same inputs give the same bytes. */
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/core/spec.hpp"

namespace hulk {

/** @brief Text with &, <, >, " and ' as HTML entities (scenario, method and host names, error messages). */
std::string html_escape(const std::string& text);

/** @brief One inline <svg> of a placement on the scenario's platform: a box per region, a box per host inside it,
 *  a cell per GPU coloured by its rank's pipeline stage and labelled "s<stage>" over "r<replica> t<tp>" (with
 *  several jobs, the job's number first: "j1 s0"); an idle GPU is grey. Each cell has a <title> with the host, slot,
 *  rank and coordinates. */
std::string placement_svg(const Scenario& scenario, const Placement& placement);

/** @brief The `hulk compare` report: the scenario, its lower bound, a table of the methods (time, speedup over
 *  round-robin and greedy, gap to the lower bound and to search, placement time; an absent or null ratio is "n/a", a
 *  failed method its error) and one picture per method that gave a placement.
 *  @param report report_to_json's object. @throws InputError if a placement in it does not fit the scenario. */
std::string compare_html(const Scenario& scenario, const nlohmann::json& report);

/** @brief The `hulk reproduce` report: the claim's verdict (and that of the several-job scenarios when there are
 *  any), a table of the scenarios by method (time and speedup over round-robin), then each scenario's compare table
 *  and pictures.
 *  @param scenarios the scenarios run, found by name for each of doc["scenarios"].
 *  @param doc reproduce_json's object (with "several_jobs" as `hulk reproduce` writes it). */
std::string reproduce_html(const std::vector<Scenario>& scenarios, const nlohmann::json& doc);

}  // namespace hulk
