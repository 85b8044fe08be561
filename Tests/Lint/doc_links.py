#!/usr/bin/env python3
"""Checks the relative links of the Markdown documents given: every linked file exists and every
`#anchor` is a heading of its document, as GitHub makes anchors (lower case, punctuation but `-`
and `_` dropped, spaces as `-`). Usage: doc_links.py FILE.md..."""
import os
import re
import sys


def anchors(path):
    found, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        match = None if fence else re.match(r"#{1,6} (.*)", line)
        if match:
            slug = re.sub(r"[^\w\- ]", "", match.group(1).strip().lower()).replace(" ", "-")
            found.add(slug)
    return found


problems = []
for document in sys.argv[1:]:
    text = re.sub(r"```.*?```", "", open(document, encoding="utf-8").read(), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = os.path.normpath(os.path.join(os.path.dirname(document), path)) if path else document
        if not os.path.exists(linked):
            problems.append(f"{document}: links to {target}, but {linked} does not exist")
        elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
            problems.append(f"{document}: links to {target}, but {linked} has no heading with that anchor")
sys.exit("\n".join(problems) if problems else 0)
