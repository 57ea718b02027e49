#!/usr/bin/env python3
"""Writes the validation scenarios of this folder (scenarios, SimGrid platforms, placement files) and measured.yaml.

Every number below is copied from the source named next to it (see README.md for the sources and the assumptions).
Run from anywhere: `python3 scenarios/validation/generate.py`; the output is deterministic (same bytes each run).
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))

DTFM_RESULTS = "DT-FM (Yuan et al. NeurIPS'22) DS3Lab/Decentralized_FM_alpha@0033f18 results/NeurIPS2022_submission.md"
DTFM_TC = "DS3Lab/DT-FM scheduler/generate_sim_com_matrices.py (commit 69f05e5)"
MEGATRON = ("Narayanan et al. SC'21 (arXiv 2104.04473) Table 1 = NVIDIA/Megatron-LM images/cases_april2021.png; "
            "t, p, micro-batch from examples/sc21/run_table_1.sh")


def write(path, text):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        f.write(text)


# ---------------------------------------------------------------------------------------------------------------
# DT-FM (Yuan et al., NeurIPS'22): GPT-XL (hidden 2048, 16 heads, seq 2048), fp16, micro-batch 1, 64 V100-16GB.
# Case 1 "data center on demand": 8 x AWS p3.16xlarge (8 V100 SXM2 with NVLink each), 25 Gbps between instances.
# Cases 3-5: 64 x p3.2xlarge (1 V100 each), the network shaped with tc netem per destination (DT-FM's generator).
# ---------------------------------------------------------------------------------------------------------------

# Case 1, "One iteration runtime (in seconds)", columns Megatron-P8 / -T8 / -P4T2 / -P2T4 (rows L<layers> B<batch>).
DTFM_CASE1 = [
    # (layers, batch, name, pp, tp, seconds, calibrate)
    (24, 1024, "P8", 8, 1, 24.34, True),
    (32, 1024, "P8", 8, 1, 26.80, False),
    (40, 1024, "P8", 8, 1, 28.62, False),
    (24, 2048, "P8", 8, 1, 50.73, False),
    (24, 1024, "T8", 1, 8, 25.04, False),
    (24, 1024, "P4T2", 4, 2, 12.52, False),
    (32, 1024, "P4T2", 4, 2, 15.38, False),
    (40, 1024, "P4T2", 4, 2, 18.88, False),
    (24, 1024, "P2T4", 2, 4, 14.25, False),
]

# Cases 3-5, "One iteration runtime", column "Megatron-P8 (Default)" (pp 8, dp 8, Megatron's rank order).
DTFM_GEO = [
    # (case, layers, batch, seconds, calibrate)
    (3, 24, 1024, 21.27, True),
    (3, 32, 1024, 24.75, False),
    (3, 40, 1024, 26.83, False),
    (3, 24, 2048, 40.19, False),
    (4, 24, 1024, 38.77, False),
    (4, 32, 1024, 42.59, False),
    (4, 40, 1024, 46.63, False),
    (5, 24, 1024, 83.04, False),
    (5, 32, 1024, 85.97, False),
    (5, 40, 1024, 89.35, False),
]
CASE_TITLE = {3: "Multiple Universities", 4: "Regional Distributed", 5: "World-wide Distributed"}

# DT-FM's tc generator: (one-way netem delay ms, netem rate Gbit/s) per ordered pair of regions.
DELAY_BW = {
    "Oregon-Virginia": (67, 0.79), "Oregon-Ohio": (49, 1.10), "Oregon-Tokyo": (96, 0.523),
    "Oregon-Seoul": (124, 0.46), "Oregon-London": (136, 0.42), "Oregon-Frankfurt": (143, 0.404),
    "Oregon-Ireland": (124, 0.482), "Virginia-Ohio": (11, 1.12), "Virginia-Tokyo": (143, 0.524),
    "Virginia-Seoul": (172, 0.500), "Virginia-London": (76, 1.16), "Virginia-Frankfurt": (90, 1.02),
    "Virginia-Ireland": (67, 1.05), "Ohio-Tokyo": (130, 0.694), "Ohio-Seoul": (159, 0.529),
    "Ohio-London": (86, 1.05), "Ohio-Frankfurt": (99, 0.799), "Ohio-Ireland": (77, 1.14),
    "Tokyo-Seoul": (34, 1.10), "Tokyo-London": (210, 0.366), "Tokyo-Frankfurt": (223, 0.36),
    "Tokyo-Ireland": (199, 0.465), "Seoul-London": (238, 0.342), "Seoul-Frankfurt": (235, 0.358),
    "Seoul-Ireland": (228, 0.335), "London-Frankfurt": (14, 1.14), "London-Ireland": (12, 1.09),
    "Frankfurt-Ireland": (24, 1.08),
}


def case_matrix(case, nodes=64):
    """(regions, delay_ms[i][j], bandwidth_gbit[i][j]) exactly as DT-FM's simulate_<case>_... functions."""
    if case == 3:  # simulate_3_multi_universities: 0..31 Ohio, 32..63 Virginia; 1 ms / 5 Gbit inside, 11 ms / 1.12
        regions = ["Ohio" if i < nodes // 2 else "Virginia" for i in range(nodes)]
        d = [[1.0] * nodes for _ in range(nodes)]
        b = [[5.0] * nodes for _ in range(nodes)]
        for i in range(nodes):
            for j in range(nodes):
                if regions[i] != regions[j]:
                    d[i][j], b[i][j] = 11.0, 1.12
        return regions, d, b
    if case == 4:  # simulate_4_regional_geo_distributed: 4 x 16 nodes; 10 ms / 2 Gbit inside a region
        names = ["Virginia", "Oregon", "California", "Ohio"]
        regions = [names[i * 4 // nodes] for i in range(nodes)]
        pair = {("Virginia", "Oregon"): (67, 1.15), ("Virginia", "California"): (59, 1.05),
                ("Virginia", "Ohio"): (11, 1.12), ("Oregon", "California"): (12, 1.25),
                ("Oregon", "Ohio"): (49, 1.10), ("California", "Ohio"): (52, 1.02)}
        d = [[10.0] * nodes for _ in range(nodes)]
        b = [[2.0] * nodes for _ in range(nodes)]
        for i in range(nodes):
            for j in range(nodes):
                key = (regions[i], regions[j]) if (regions[i], regions[j]) in pair else (regions[j], regions[i])
                if key in pair:
                    d[i][j], b[i][j] = pair[key]
        return regions, d, b
    if case == 5:  # simulate_5_worldwide_geo_distributed: 8 cities x 8 nodes; 10 ms / 2 Gbit inside a city
        cities = ["Oregon", "Virginia", "Ohio", "Tokyo", "Seoul", "London", "Frankfurt", "Ireland"]
        regions = [cities[i // (nodes // len(cities))] for i in range(nodes)]
        d = [[10.0] * nodes for _ in range(nodes)]
        b = [[2.0] * nodes for _ in range(nodes)]
        for i in range(nodes):
            for j in range(nodes):
                if regions[i] != regions[j]:
                    k = regions[i] + "-" + regions[j]
                    d[i][j], b[i][j] = DELAY_BW[k] if k in DELAY_BW else DELAY_BW[regions[j] + "-" + regions[i]]
        return regions, d, b
    raise ValueError(case)


def fmt(x):
    return ("%.3f" % x).rstrip("0").rstrip(".")


def case_xml(case):
    """One flat zone, one host per p3.2xlarge, and for every host one egress link per netem class (tc keys its
    classes by (delay, rate), so all flows from a host to destinations of one class share that class's rate).
    Route i -> j is the single link of i's class for j: netem shapes the sender's egress only."""
    regions, d, b = case_matrix(case)
    n = len(regions)
    lines = ["<?xml version='1.0'?>",
             "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">",
             "<!-- Generated by generate.py: DT-FM case %d (%s), 64 x AWS p3.2xlarge shaped by tc netem as %s."
             % (case, CASE_TITLE[case], DTFM_TC),
             "     Link ids: <host>-egress-<delay ms>ms-<rate>Gbit; one per (sender, netem class). -->",
             "<platform version=\"4.1\">",
             "  <zone id=\"dtfm-case%d\" routing=\"Full\">" % case]
    for i in range(n):
        lines.append("    <host id=\"%s-%d\" speed=\"1Gf\"/>" % (regions[i].lower(), i))
    classes = []
    for i in range(n):
        seen = []
        for j in range(n):
            if i != j and (d[i][j], b[i][j]) not in seen:
                seen.append((d[i][j], b[i][j]))
        classes.append(seen)
        for (dl, bw) in seen:
            lines.append("    <link id=\"h%d-egress-%sms-%sGbit\" bandwidth=\"%sGbps\" latency=\"%sms\"/>"
                         % (i, fmt(dl), fmt(bw), fmt(bw), fmt(dl)))
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            lines.append("    <route src=\"%s-%d\" dst=\"%s-%d\" symmetrical=\"NO\"><link_ctn id=\"h%d-egress-%sms-%sGbit\"/></route>"
                         % (regions[i].lower(), i, regions[j].lower(), j, i, fmt(d[i][j]), fmt(b[i][j])))
    lines += ["  </zone>", "</platform>", ""]
    return "\n".join(lines)


def block_placement(ranks, hosts, gpus_per_host, host_name):
    """Megatron's launcher order: rank r on node r // gpus_per_host, local GPU r % gpus_per_host."""
    assert ranks <= hosts * gpus_per_host
    doc = {"ranks": [{"rank": r, "host": host_name(r // gpus_per_host), "slot": r % gpus_per_host}
                     for r in range(ranks)]}
    return json.dumps(doc, indent=1) + "\n"


def yaml_job(layers, hidden, heads, seq, vocab, batch, micro, dp, tp, pp, precision="fp16", check_memory=True,
             recompute=None, recompute_note=None, virtual_stages=1, sequence_parallel=False, vstage_note=None):
    out = ["job:",
           "  model: {layers: %d, hidden: %d, heads: %d, seq_len: %d, vocab: %d}" % (layers, hidden, heads, seq, vocab),
           "  precision: %s" % precision,
           "  global_batch: %d" % batch,
           "  micro_batch: %d" % micro,
           "  parallelism: {dp: %d, tp: %d, pp: %d}" % (dp, tp, pp),
           "  schedule: 1f1b",
           "  collective: ring",
           "  iterations: 1",
           "  utilisation: 0.4   # replaced by the series' calibrated utilisation in `hulk fidelity`"]
    if recompute:
        out.append("  recompute: %s   # %s" % (recompute, recompute_note or
                   "Megatron-LM --recompute-method uniform (run_table_1.sh); eq. 3 counts it"))
    if virtual_stages > 1:
        out.append("  virtual_stages: %d   # %s" % (virtual_stages, vstage_note))
    if sequence_parallel:
        out.append("  sequence_parallel: true")
    if not check_memory:
        out.append("  check_memory: false   # the run fitted; hulk's activation model has no recomputation (README.md)")
    return "\n".join(out) + "\n"


points = []  # manifest entries


def add_point(series, case, scenario, measured, unit, source, calibrate, transport=None):
    points.append((series, case, scenario, measured, unit, source, calibrate, transport))


# --- DT-FM case 1: data center ---
write("dtfm-datacenter/megatron-order-8x8.json",
      block_placement(64, 8, 8, lambda h: "p3-16xlarge-%d" % h))
for (layers, batch, name, pp, tp, secs, cal) in DTFM_CASE1:
    case = "%s-L%d-B%d" % (name.lower(), layers, batch)
    dp = 64 // (pp * tp)
    text = ("# DT-FM case 1 (data center on demand), Megatron-%s, GPT-XL with %d layers, batch %d: measured %.2f s per\n"
            "# iteration (%s, Case 1 table, row L%d B%d, column Megatron-%s). Assumptions: README.md.\n"
            % (name, layers, batch, secs, DTFM_RESULTS, layers, batch, name))
    text += ("name: dtfm-dc-%s\n"
             "platform:\n"
             "  regions:\n"
             "    - name: aws\n"
             "      host_prefix: p3-16xlarge\n"
             "      hosts: 8\n"
             "      gpus_per_host: 8\n"
             "      gpu: V100-16GB\n"
             "      host_link: {bandwidth: 25Gbps, latency: 50us, transport: tcp}   # p3.16xlarge: 25 Gbps, no EFA\n"
             "      intra_host: {bandwidth: 150GBps, latency: 2us, transport: nvlink}   # V100 SXM2: 300 GB/s both ways\n"
             "network: {model: CM02, tcp_window: 0}\n" % case)
    text += yaml_job(layers, 2048, 16, 2048, 50257, batch, 1, dp, tp, pp, check_memory=False)
    text += "placement: file:megatron-order-8x8.json   # Megatron's rank r on instance r // 8\n"
    write("dtfm-datacenter/%s.yaml" % case, text)
    add_point("dtfm-v100-datacenter", case, "dtfm-datacenter/%s.yaml" % case, secs, "s",
              "%s, Case 1 runtime table, L%d B%d, Megatron-%s" % (DTFM_RESULTS, layers, batch, name), cal)

# --- DT-FM cases 3-5: tc-shaped WAN ---
for case in (3, 4, 5):
    write("dtfm-geo/case%d.xml" % case, case_xml(case))
for (case, layers, batch, secs, cal) in DTFM_GEO:
    name = "case%d-L%d-B%d" % (case, layers, batch)
    text = ("# DT-FM case %d (%s), Megatron-P8 (Default): GPT-XL with %d layers, batch %d on 64 x p3.2xlarge, measured\n"
            "# %.2f s per iteration (%s, Case %d table, row L%d B%d, column Megatron-P8 (Default)).\n"
            "# Network: case%d.xml reproduces DT-FM's tc netem settings (%s). Assumptions: README.md.\n"
            % (case, CASE_TITLE[case], layers, batch, secs, DTFM_RESULTS, case, layers, batch, case, DTFM_TC))
    text += ("name: dtfm-geo-%s\n"
             "platform:\n"
             "  simgrid:\n"
             "    file: case%d.xml\n"
             "    gpus:\n"
             "      default: {count: 1, gpu: V100-16GB}   # p3.2xlarge: one V100 SXM2 16GB\n"
             "network: {model: CM02, tcp_window: 0}\n" % (name, case))
    text += yaml_job(layers, 2048, 16, 2048, 50257, batch, 1, 8, 1, 8, check_memory=False)
    text += "placement: round-robin   # one GPU per host: rank r on host r, Megatron's order on DT-FM's node list\n"
    write("dtfm-geo/%s.yaml" % name, text)
    add_point("dtfm-v100-geo", name, "dtfm-geo/%s.yaml" % name, secs, "s",
              "%s, Case %d runtime table, L%d B%d, Megatron-P8 (Default)" % (DTFM_RESULTS, case, layers, batch), cal)

# --- Megatron-LM on Selene (DGX A100 80GB): SC'21 Table 1 and Korthikanti et al. 2022 Table 5 ---
SELENE_NOTE = "8 x 200 Gbps HDR"


def selene_scenario(name, gpus, header, job):
    """One Selene scenario: gpus / 8 DGX A100 nodes in Megatron's launcher order (placement file)."""
    hosts = gpus // 8
    pl = "megatron-order-%d.json" % gpus
    write("megatron-selene/" + pl, block_placement(gpus, hosts, 8, lambda i: "dgx-%d" % i))
    text = header
    text += ("name: selene-%s\n"
             "platform:\n"
             "  regions:\n"
             "    - name: selene\n"
             "      host_prefix: dgx\n"
             "      hosts: %d\n"
             "      gpus_per_host: 8\n"
             "      gpu: A100-80GB\n"
             "      host_link: {bandwidth: 1600Gbps, latency: 5us, transport: infiniband}   # %s\n"
             "      intra_host: {bandwidth: 300GBps, latency: 2us, transport: nvlink}   # NVLink 3 + NVSwitch\n"
             "network: {model: CM02, tcp_window: 0}\n" % (name, hosts, SELENE_NOTE))
    text += job
    text += "placement: file:%s   # Megatron's rank r on node r // 8 (tensor groups inside a node)\n" % pl
    write("megatron-selene/%s.yaml" % name, text)


# SC'21 Table 1 (label, hidden, heads, layers, t, p, gpus, batch, TFLOP/s per GPU) and from run_table_1.sh the
# micro-batch (MBS) and --num-layers-per-virtual-pipeline-stage (layers per model chunk; absent = not interleaved).
SELENE = [
    # (label, hidden, heads, layers, t, p, gpus, batch, micro, layers per chunk, TFLOP/s per GPU, calibrate)
    ("1.7B", 2304, 24, 24, 1, 1, 32, 512, 16, None, 137, False),
    ("3.6B", 3072, 32, 30, 2, 1, 64, 512, 16, None, 138, False),
    ("7.5B", 4096, 32, 36, 4, 1, 128, 512, 16, None, 142, True),
    ("18B", 6144, 48, 40, 8, 1, 256, 1024, 8, None, 135, False),
    ("39B", 8192, 64, 48, 8, 2, 512, 1536, 4, None, 138, False),
    ("76B", 10240, 80, 60, 8, 4, 1024, 1792, 2, 5, 140, False),
    ("145B", 12288, 96, 80, 8, 8, 1536, 2304, 2, 5, 148, False),
    ("310B", 16384, 128, 96, 8, 16, 1920, 2160, 1, 3, 155, False),
    ("530B", 20480, 128, 105, 8, 35, 2520, 2520, 1, 1, 163, False),
    ("1T", 25600, 160, 128, 8, 64, 3072, 3072, 1, None, 163, False),
]
for (label, h, heads, layers, t, p, gpus, batch, micro, chunk, tflops, cal) in SELENE:
    dp = gpus // (t * p)
    name = "gpt-%s" % label.lower()
    v = layers // (p * chunk) if chunk else 1
    header = ("# Megatron-LM weak scaling, %s GPT on %d A100 (Selene DGX A100 nodes): measured %d TFLOP/s per GPU\n"
              "# (%s, row %s). Assumptions: README.md.\n" % (label, gpus, tflops, MEGATRON, label))
    job = yaml_job(layers, h, heads, 2048, 51200, batch, micro, dp, t, p, recompute="full", virtual_stages=v,
                   vstage_note="--num-layers-per-virtual-pipeline-stage %s: %d layers / (pp %d x %s)"
                               % (chunk, layers, p, chunk))
    selene_scenario(name, gpus, header, job)
    add_point("megatron-a100-selene", name, "megatron-selene/%s.yaml" % name, tflops, "TFLOP/s/GPU",
              "Narayanan et al. SC'21 (arXiv 2104.04473) Table 1, row %s (= Megatron-LM images/cases_april2021.png); "
              "micro-batch %d%s: Megatron-LM examples/sc21/run_table_1.sh"
              % (label, micro, (", %d layers per virtual stage" % chunk) if chunk else ""), cal)

# Korthikanti et al., "Reducing Activation Recomputation in Large Transformer Models" (arXiv 2205.05198, MLSys'23):
# Table 3 (heads, hidden, layers, t, p, GPUs, global batch, micro-batch; s 2048, V 51200, A100 80GB, no data
# parallelism, interleaved schedule with 3 model chunks per GPU for 175B and 530B) and Table 5 (iteration time in
# seconds: "Full recompute" and "Present work" = sequence parallelism + selective recomputation).
KORTHIKANTI = ("Korthikanti et al. 2022 (arXiv 2205.05198) Table 5, row %s, column %s (iteration time); "
               "setup: Table 3, row %s")
SELENE_2022 = [
    # (label, heads, hidden, layers, t, p, gpus, batch, micro, virtual stages, full recompute s, present work s)
    ("22B", 64, 6144, 48, 8, 1, 8, 4, 4, 1, 1.42, 1.10),
    ("175B", 96, 12288, 96, 8, 8, 64, 64, 1, 3, 18.13, 13.75),
    ("530B", 128, 20480, 105, 8, 35, 280, 280, 1, 3, 49.05, 37.83),
    ("1T", 160, 25600, 128, 8, 64, 512, 512, 1, 1, 94.42, 71.49),
]
for (label, heads, h, layers, t, p, gpus, batch, micro, v, full_s, present_s) in SELENE_2022:
    dp = gpus // (t * p)
    for (mode, column, secs) in (("full", "Full recompute", full_s), ("sp-selective", "Present work", present_s)):
        name = "gpt-%s-%s" % (label.lower(), mode)
        header = ("# Korthikanti et al. 2022, %s GPT on %d A100 80GB (DGX A100 nodes as on Selene), %s: measured %.2f s per\n"
                  "# iteration (%s). Assumptions: README.md.\n"
                  % (label, gpus, column, secs, KORTHIKANTI % (label, column, label)))
        if mode == "full":
            job = yaml_job(layers, h, heads, 2048, 51200, batch, micro, dp, t, p, recompute="full",
                           recompute_note="Table 5, column Full recompute", virtual_stages=v,
                           vstage_note="Table 3: interleaved schedule with 3 model chunks per GPU")
        else:
            job = yaml_job(layers, h, heads, 2048, 51200, batch, micro, dp, t, p, recompute="selective",
                           recompute_note="Table 5, column Present work: selective recomputation",
                           virtual_stages=v, sequence_parallel=True,
                           vstage_note="Table 3: interleaved schedule with 3 model chunks per GPU")
        selene_scenario(name, gpus, header, job)
        add_point("megatron-a100-selene", name, "megatron-selene/%s.yaml" % name, secs, "s",
                  KORTHIKANTI % (label, column, label), False)

def collective_point(series, prefix, name, text, busbw, source, cal, transport):
    """Writes nccl-tests/PREFIX-NAME.yaml and adds its measured busbw to the series."""
    scenario = "nccl-tests/%s-%s.yaml" % (prefix, name)
    write(scenario, text)
    add_point(series, name, scenario, busbw, "GB/s busbw", source, cal, transport=transport)


# --- nccl-tests: collective benchmarks (a collective alone; the series calibrates a transport's achieved fraction) ---
# NVIDIA/nccl-tests issue 194 (= NVIDIA/nccl issue 1161): `all_reduce_perf -b 1G -e 8G -f 2 -g 2` on two H100 PCIe
# joined by NVLink bridges, NCCL's P2P/direct transport; rows 1, 2 and 4 GiB of the out-of-place busbw column.
NCCL_194 = ("NVIDIA/nccl-tests issue 194 (= NVIDIA/nccl issue 1161), all_reduce_perf -g 2 on 2 x H100 PCIe over "
            "NVLink bridges, out-of-place busbw, row %d B")
H100_PCIE_ROWS = [(1073741824, 115.37, True), (2147483648, 115.86, False), (4294967296, 116.26, False)]
for (size, busbw, cal) in H100_PCIE_ROWS:
    name = "all-reduce-%dgib" % (size >> 30)
    text = ("# nccl-tests all_reduce_perf on one server with 2 x H100 PCIe over NVLink bridges, %d bytes: measured busbw\n"
            "# %.2f GB/s (%s). Assumptions: README.md.\n" % (size, busbw, NCCL_194 % size) +
            "name: h100pcie-nvlink-%s\n"
            "platform:\n"
            "  regions:\n"
            "    - name: server\n"
            "      hosts: 1\n"
            "      gpus_per_host: 2\n"
            "      # H100 PCIe datasheet: 756 TFLOPS dense FP16, 80GB (a benchmark computes nothing; named for the record)\n"
            "      gpu: {name: H100-PCIe, flops: 756TFLOPS, memory: 80GB}\n"
            "      # NVLink bridges: 600 GB/s bidirectional per GPU pair (H100 PCIe datasheet), 300 GB/s per direction\n"
            "      intra_host: {bandwidth: 300GBps, latency: 2us, transport: nvlink}\n"
            "      host_link: {bandwidth: 100Gbps, latency: 5us}\n"
            "collective: {op: all_reduce, bytes: %d, nodes: 1, gpus_per_node: 2, algorithm: ring}\n"
            % (name, size))
    collective_point("nccl-h100pcie-nvlink", "h100pcie-nvlink", name, text, busbw, NCCL_194 % size, cal, "nvlink")

# lessizzmore/create-a3mega-ztan-fork@02dd8f4, file ztan-NCCL-test-result: `all_reduce_perf -b 8 -e 8G -f 2 -g 1`,
# 16 ranks on 2 Google Cloud A3 Mega VMs (8 x H100 80GB HBM3 each), GPUDirect-TCPXO between the VMs; rows 128 MiB
# to 8 GiB of the out-of-place busbw column (the measured busbw passes the VM's network bandwidth from 1 GiB up, which
# a ring cannot: a tree between the nodes).
A3MEGA = ("lessizzmore/create-a3mega-ztan-fork@02dd8f4 ztan-NCCL-test-result, all_reduce_perf on 2 x A3 Mega "
          "(16 x H100) over GPUDirect-TCPXO, out-of-place busbw, row %d B")
A3MEGA_ROWS = [(134217728, 152.32, False), (268435456, 213.19, False), (536870912, 263.69, False),
               (1073741824, 297.86, False), (2147483648, 318.40, False), (4294967296, 330.58, False),
               (8589934592, 338.82, True)]
for (size, busbw, cal) in A3MEGA_ROWS:
    name = "all-reduce-%dmib" % (size >> 20)
    text = ("# nccl-tests all_reduce_perf on 2 Google Cloud A3 Mega VMs (8 x H100 each, GPUDirect-TCPXO), %d bytes:\n"
            "# measured busbw %.2f GB/s (%s). Assumptions: README.md.\n" % (size, busbw, A3MEGA % size) +
            "name: a3mega-tcpxo-%s\n"
            "platform:\n"
            "  regions:\n"
            "    - name: zone\n"
            "      hosts: 2\n"
            "      gpus_per_host: 8\n"
            "      gpu: H100-80GB\n"
            "      # NVLink 4 through NVSwitch: 900 GB/s bidirectional per GPU (H100 SXM datasheet), 450 GB/s per direction, of\n"
            "      # which NCCL gets 370 GB/s (NVIDIA/nccl-tests issue 212, sjeaugey: ~20%% protocol overhead): achieved 0.82\n"
            "      intra_host: {bandwidth: 450GBps, latency: 2us, transport: nvlink, achieved: 0.82}\n"
            "      # A3 Mega: 8 GPU NICs of 200 Gbps (Google Cloud's accelerator-optimized machine types), one link of their sum\n"
            "      host_link: {bandwidth: 1600Gbps, latency: 10us, transport: tcpxo}\n"
            "collective: {op: all_reduce, bytes: %d, nodes: 2, gpus_per_node: 8, algorithm: tree}\n"
            % (name, size))
    collective_point("nccl-a3mega-tcpxo", "a3mega-tcpxo", name, text, busbw, A3MEGA % size, cal, "tcpxo")

# --- manifest ---
out = ["# Measured iteration times of real training runs, each reproduced by one scenario of this folder.",
       "# Read by `hulk fidelity` (README.md); written by generate.py. Units: s (seconds per iteration), tokens/s",
       "# (t = global_batch x seq_len / value), TFLOP/s/GPU (Megatron-LM's eq. 3 with recomputation:",
       "# t = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) / (value x GPUs), B s l h V and GPUs from the scenario's job).",
       "# GB/s busbw (a collective benchmark: t = bytes x bus factor / value, nccl-tests' busbw).",
       "# calibrate: true marks the one point per series whose measurement sets the series' utilisation (or, with",
       "# transport, that transport's achieved fraction).",
       "points:"]
for (series, case, scenario, measured, unit, source, cal, transport) in points:
    out.append("  - series: %s" % series)
    out.append("    case: %s" % case)
    out.append("    scenario: %s" % scenario)
    out.append("    measured: %s" % (("%.2f" % measured) if unit == "s" else str(measured)))
    out.append("    unit: %s" % unit)
    out.append("    source: %s" % json.dumps(source))
    if cal:
        out.append("    calibrate: true")
    if transport:
        out.append("    transport: %s" % transport)
write("measured.yaml", "\n".join(out) + "\n")
