#!/usr/bin/env python3
"""Writes the INTELLECT-1-shaped scenarios of this folder (deterministic): python3 generate.py.

INTELLECT-1 (arXiv 2412.01152): a 10B Llama-3-like model (42 layers, hidden 4096, 32 heads, context 8192, vocabulary
128256) trained with DiLoCo (100 inner steps, int8 all-reduce of the pseudo-gradients) on up to 14 nodes of 8 H100,
in five countries on three continents; published compute utilisation 83% across continents, 96% with every node in
the United States. Everything below that is not in that sentence is an assumption, stated in README.md."""
import itertools

NODES = {  # continent -> nodes (assumption: the split of the 14 nodes)
    "us": 14,
}
CONTINENTS = {"us": 8, "eu": 4, "asia": 2}
LATENCY_MS = {  # one-way, between nodes of two continents (assumption: typical internet paths)
    ("us", "us"): 25, ("eu", "eu"): 15, ("asia", "asia"): 20,
    ("us", "eu"): 45, ("us", "asia"): 90, ("eu", "asia"): 110,
}

JOB = """job:
  model: {name: intellect-1-10b, layers: 42, hidden: 4096, heads: 32, seq_len: 8192, vocab: 128256}
  precision: bf16
  global_batch: 224            # 16 sequences of 8192 tokens per node and inner step (assumption)
  micro_batch: 1
  parallelism: {dp: 14, tp: 8, pp: 1}   # one replica per node, tensor parallel over the node's NVLink
  recompute: full
  utilisation: 0.4             # published model FLOPS utilisation 36.2-41.4%
  sync: {algorithm: diloco, inner_steps: 100, islands: host, compression: int8}
placement: greedy
"""


def scenario(name, description, nodes):
    lines = [f"# {description}", "# Written by generate.py; assumptions in README.md.", f"name: {name}", "platform:",
             "  regions:"]
    for node, continent in nodes:
        lines.append(f"    - {{name: {node}, hosts: 1, gpus_per_host: 8, gpu: H100-80GB, "
                     f"host_link: {{bandwidth: 10Gbps, latency: 1ms}}}}")
    lines += ["  wan:", "    capacity: host", "    default: {bandwidth: 10Gbps, latency: 25ms}", "    pairs:"]
    for (a, ca), (b, cb) in itertools.combinations(nodes, 2):
        ms = LATENCY_MS.get((ca, cb)) or LATENCY_MS[(cb, ca)]
        lines.append(f"      - {{between: [{a}, {b}], bandwidth: 10Gbps, latency: {ms}ms}}")
    lines += ["network: {model: CM02, tcp_window: 16MiB}", JOB]
    return "\n".join(lines)


def main():
    us = [(f"us-{i}", "us") for i in range(14)]
    world = [(f"{c}-{i}", c) for c, n in CONTINENTS.items() for i in range(n)]
    with open("us.yaml", "w") as f:
        f.write(scenario("intellect-1-us", "INTELLECT-1 shape, every node in the United States (published: 96%).", us))
    with open("continents.yaml", "w") as f:
        f.write(scenario("intellect-1-continents",
                         "INTELLECT-1 shape, nodes on three continents (published: 83%).", world))


if __name__ == "__main__":
    main()
