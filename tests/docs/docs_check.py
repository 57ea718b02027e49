#!/usr/bin/env python3
"""ctest docs.consistency: the docs say what the commands printed, and hold no history.

1. Every generated block of README.md and docs/ equals what tools/scripts/docs_render.py makes from docs/results/.
2. README.md stays a newcomer's page: under 200 lines and 12 KB.
3. No history in the README, the docs (outside CHANGELOG.md, the generated blocks, docs/results/ and docs/data/) or the
   code (sim/, gnn/, tools/, tests/ outside tests/data/): no dates, commit hashes, issue numbers, seed ledgers, "was X"
   or "until <year>". History belongs in git log and CHANGELOG.md.
Usage: docs_check.py SOURCE_DIR
"""
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()

HISTORY = [
    (re.compile(r"\b20\d\d-\d\d(-\d\d)?\b"), "a date"),
    (re.compile(r"(?<![\w./-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,12}(?![\w-])"), "a commit hash"),
    (re.compile(r"\b[Ii]ssues? #?\d+"), "an issue number"),
    (re.compile(r"\boutside probe", re.I), "a note of who found what"),
    (re.compile(r"\bwas \d"), "a former value ('was X')"),
    (re.compile(r"\b[Uu]ntil 20\d\d"), "a former state ('until <year>')"),
    (re.compile(r"\bseeds? 20\d{6}"), "a seed ledger"),
]


def doc_files():
    files = [ROOT / "README.md"] + sorted((ROOT / "docs").glob("*.md"))
    return [f for f in files if f.name != "CHANGELOG.md"]


def code_files():
    out = []
    for folder in ("sim", "gnn", "tools"):
        for ext in ("*.cpp", "*.hpp", "*.py", "*.sh"):
            out += sorted((ROOT / folder).rglob(ext))
    for ext in ("*.cpp", "*.hpp", "*.py", "*.sh", "*.txt"):
        out += sorted(f for f in (ROOT / "tests").rglob(ext) if (ROOT / "tests" / "data") not in f.parents)
    return out


GENERATED = re.compile(r"<!-- ([\w-]+):start -->.*?<!-- \1:end -->", re.S)


def without_generated_blocks(text):
    """The text with each generated block's body blanked (its lines kept, so line numbers stay): those blocks are
    command output, which may cite a source repository at a commit."""
    return GENERATED.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def comments_only(path, text):
    """The comment text of a code file, line by line (other text blanked, line numbers kept): the rule is about what
    comments say; strings and code may print a former value as the program's own output ("(was 0, now 7)")."""
    out, in_block = [], False
    c_like = path.suffix in (".cpp", ".hpp")
    for line in text.splitlines():
        if not c_like:
            out.append(line[line.index("#"):] if "#" in line else "")
            continue
        kept = ""
        if in_block:
            end = line.find("*/")
            kept, in_block = (line, True) if end < 0 else (line[:end], False)
            line = "" if end < 0 else line[end + 2:]
        start, slash = line.find("/*"), line.find("//")
        if slash >= 0 and (start < 0 or slash < start):
            kept += " " + line[slash:]
        elif start >= 0:
            end = line.find("*/", start + 2)
            kept += " " + (line[start:] if end < 0 else line[start:end])
            in_block = end < 0
        out.append(kept)
    return "\n".join(out)


def history_problems(files):
    problems = []
    for f in files:
        text = without_generated_blocks(f.read_text(errors="replace"))
        if f.suffix != ".md":
            text = comments_only(f, text)
        for n, line in enumerate(text.splitlines(), 1):
            for pattern, what in HISTORY:
                m = pattern.search(line)
                if m:
                    problems.append("%s:%d: %s (%r)" % (f.relative_to(ROOT), n, what, m.group(0)))
    return problems


def main():
    checks = {}
    render = subprocess.run([sys.executable, str(ROOT / "tools" / "scripts" / "docs_render.py"), "--check"],
                            capture_output=True, text=True)
    checks["generated blocks"] = [] if render.returncode == 0 else [(render.stdout + render.stderr).strip()]
    readme = (ROOT / "README.md").read_text()
    lines, size = readme.count("\n"), len(readme.encode())
    checks["README size"] = [] if lines < 200 and size < 12 * 1024 else [
        "README.md has %d lines and %d bytes (a newcomer's page: < 200 lines, < 12 KB; the rest belongs in docs/)"
        % (lines, size)]
    checks["no history"] = history_problems(doc_files() + code_files())
    for name, problems in checks.items():
        for p in problems:
            print("FAIL: %s: %s" % (name, p))
    failed = sum(1 for problems in checks.values() if problems)
    print("%d passed, %d failed" % (len(checks) - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
