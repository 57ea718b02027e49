#!/usr/bin/python3
"""Writes the scale benchmark's scenarios (issue 10): one family from 64 to 65,536 GPUs.

Every file: hosts of 8 A100-80GB (100 Gbit/s NIC, 20 us), regions of up to 32 hosts joined by 10 Gbit/s, 60 ms WAN
links, GPT-3 13B with tp 8 x pp 8 and dp = GPUs / 64, 8 micro-batches per pipeline, one iteration. 16,384 GPUs is
the issue's example: 64 regions x 32 hosts x 8 GPUs, dp 256 x tp 8 x pp 8. The placement is greedy (compact: a
tensor-parallel group per host), the one a user would run; `hulk bench --placement` changes it.

flat-1024 is the GNN placement benchmark's shape (issue 10: "< 1 s on 1,024 single-GPU hosts"): 16 regions x 64
single-A100 hosts, GPT-3 13B with dp 64 x pp 16 and no tensor parallelism.

Usage: scenarios/scale/generate.py [DIR]   (default: this script's folder)
"""
import os
import sys

SIZES = [64, 256, 1024, 4096, 16384, 65536]


def scenario(gpus, gpus_per_host=8, tp=8, pp=8, name=None):
    hosts = gpus // gpus_per_host
    regions = max(1, hosts // (32 if gpus_per_host == 8 else 64))
    per_region = hosts // regions
    dp = gpus // (tp * pp)
    name = name or f"scale-{gpus}"
    lines = [
        f"# Scale benchmark, {gpus} GPUs: {regions} region(s) x {per_region} hosts x {gpus_per_host} A100-80GB, "
        f"GPT-3 13B dp {dp} x tp {tp} x pp {pp}.",
        "# Written by scenarios/scale/generate.py; do not edit by hand.",
        f"name: {name}",
        "seed: 11",
        "platform:",
        "  regions:",
    ]
    for r in range(regions):
        lines.append(f"    - {{name: region{r:02d}, hosts: {per_region}, gpus_per_host: {gpus_per_host}, gpu: A100-80GB, "
                     "host_link: {bandwidth: 100Gbps, latency: 20us}}")
    lines += [
        "  wan:",
        "    default: {bandwidth: 10Gbps, latency: 60ms}",
        "network: {model: CM02, tcp_window: 0}",
        "job:",
        "  model: {preset: gpt3-13b}",
        "  precision: fp16",
        f"  global_batch: {pp * dp}",
        "  micro_batch: 1",
        f"  parallelism: {{dp: {dp}, tp: {tp}, pp: {pp}}}",
        "  schedule: 1f1b",
        "  collective: hierarchical",
        "  iterations: 1",
        "  utilisation: 0.4",
        "placement: greedy",
    ]
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    files = {f"scale-{gpus}.yaml": scenario(gpus) for gpus in SIZES}
    files["flat-1024.yaml"] = scenario(1024, gpus_per_host=1, tp=1, pp=16, name="flat-1024")
    for name, text in files.items():
        path = os.path.join(out, name)
        with open(path, "w") as f:
            f.write(text)
        print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
