#!/usr/bin/env python3
"""Runs actionlint on the user workflow shown in Documentation/ci.md (the ```yaml block after the
<!-- user-workflow --> marker), so the example stays valid. Usage: readme_workflow.py ACTIONLINT..."""
import os
import re
import subprocess
import sys
import tempfile

text = open("Documentation/ci.md", encoding="utf-8").read()
match = re.search(r"<!-- user-workflow -->\n```yaml\n(.*?)```", text, re.S)
if not match:
    sys.exit("Documentation/ci.md: no ```yaml block after <!-- user-workflow -->")
with tempfile.TemporaryDirectory() as root:
    os.makedirs(os.path.join(root, ".github", "workflows"))
    with open(os.path.join(root, ".github", "workflows", "user.yml"), "w", encoding="utf-8") as out:
        out.write(match.group(1))
    subprocess.run(["git", "init", "-q", root], check=True)
    status = subprocess.run(sys.argv[1:], cwd=root).returncode
sys.exit(status and f"Documentation/ci.md: the user workflow fails actionlint (above)")
