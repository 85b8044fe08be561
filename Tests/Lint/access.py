#!/usr/bin/env python3
"""Targets that say what they need (issue 34): each Swift target in Package.swift depends on
exactly the package's targets its files import, and a `package` declaration is named by some
other target (its sources, the test-support target, or a test that imports it without
@testable); one no other target names belongs internal.

The second check goes by names, so it errs on the side of `package`: a name another target uses
for something else keeps a declaration `package`. It checks functions and properties; a type
another target uses only through values (never by name) is still its API, so types,
initialisers and subscripts are not checked.

Usage: access.py   (from the package's root; prints one line per problem, exits 1 if any)
"""
import glob
import os
import re
import sys

DECLARATION = re.compile(
    r"^\s*package\s+(?:(?:static|final|mutating|nonmutating|override|indirect|nonisolated|lazy|"
    r"convenience|required|private\(set\)|@\w+)\s+)*"
    r"(?:func|var|let)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
# Requirements of the standard library's protocols: a package type's witness must be package.
WITNESSES = {"encode", "hash", "description", "debugDescription", "makeIterator", "next", "errorDescription"}
IMPORT = re.compile(r"^(?:@testable )?import (\w+)$", re.M)


def without_comments(text):
    return re.sub(r"//.*", "", text)


def declared_targets():
    """Every target of Package.swift: its name, its dependencies and its folder."""
    manifest = open("Package.swift").read()
    found = {}
    for match in re.finditer(r"\.(target|testTarget|executableTarget|systemLibrary)\(", manifest):
        depth, end = 0, match.end() - 1
        for end in range(match.end() - 1, len(manifest)):
            depth += {"(": 1, ")": -1}.get(manifest[end], 0)
            if depth == 0:
                break
        call = manifest[match.end() : end]
        name = re.search(r'name: "(\w+)"', call).group(1)
        deps = re.search(r"dependencies: \[([^\]]*)\]", call)
        path = re.search(r'path: "([^"]+)"', call)
        folder = path.group(1) if path else ("Tests/" if match.group(1) == "testTarget" else "Sources/") + name
        found[name] = (set(re.findall(r'"(\w+)"', deps.group(1))) if deps else set(), folder, match.group(1))
    return found


def main():
    targets = {
        name: glob.glob(f"Sources/{name}/**/*.swift", recursive=True)
        for name in sorted(os.listdir("Sources"))
        if glob.glob(f"Sources/{name}/**/*.swift", recursive=True)
    }
    text = {path: open(path).read() for files in targets.values() for path in files}
    tests = {path: open(path).read() for path in glob.glob("Tests/**/*.swift", recursive=True)}
    problems = []
    declared = declared_targets()
    # Built, not imported: the binary the tests run, the start-up code the binary links.
    unimported = {name for name, (_, _, kind) in declared.items() if kind == "executableTarget"} | {"CAsmRunStatic"}
    for name, (dependencies, folder, _) in declared.items():
        files = glob.glob(f"{folder}/**/*.swift", recursive=True)
        imported = {m for path in files for m in IMPORT.findall(open(path).read()) if m in declared and m != name}
        for extra in sorted(dependencies - imported - unimported):
            problems.append(f"Package.swift: {name} depends on {extra} but imports nothing from it; drop it")
        for missing in sorted(imported - dependencies):
            problems.append(f"Package.swift: {name} imports {missing} without declaring it; add it")
    for name, files in targets.items():
        others = [without_comments(text[p]) for other, paths in targets.items() if other != name for p in paths]
        others += [
            without_comments(source)
            for path, source in tests.items()
            if path.startswith("Tests/AsmRunTestSupport/") or re.search(rf"^import {name}$", source, re.M)
        ]
        used = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", "\n".join(others)))
        for path in files:
            for number, line in enumerate(text[path].split("\n"), 1):
                match = DECLARATION.match(line)
                if match and match.group(1) not in used and match.group(1) not in WITNESSES:
                    problems.append(
                        f"{path}:{number}: '{match.group(1)}' is package but no other target names it; make it internal"
                    )
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
