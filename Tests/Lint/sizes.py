#!/usr/bin/env python3
"""Fails when a Swift file has more than 300 lines or a function (or initialiser, accessor or
closure-bodied declaration) more than 60, counting from its declaration to its closing brace.

Usage: sizes.py FILE...   Prints one line per offender: FILE:LINE: what is too long."""
import re, sys

MAX_FILE, MAX_FUNCTION = 300, 60
DECLARATION = re.compile(r'^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:package|public|private|fileprivate|internal|static|final|'
                         r'override|mutating|nonisolated|@discardableResult)\s+)*(?:func\s+\w+|init[?!]?|deinit)\b')


def code_only(text):
    """The text with comments and string contents blanked, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith('//', i):
            while i < n and text[i] != '\n':
                i += 1
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif text.startswith('"""', i):
            end = text.find('"""', i + 3)
            end = n if end < 0 else end + 3
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif text[i] == '"':
            j = i + 1
            while j < n and text[j] != '"' and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(' ' * (j + 1 - i))
            i = j + 1
        else:
            out.append(text[i])
            i += 1
    return ''.join(out)


def check(path):
    text = open(path, encoding='utf-8').read()
    lines = text.split('\n')
    problems = []
    if len(lines) > MAX_FILE:
        problems.append(f'{path}:1: {len(lines)} lines (at most {MAX_FILE})')
    code = code_only(text).split('\n')
    for number, line in enumerate(code):
        if not DECLARATION.match(line):
            continue
        depth, started = 0, False
        for end in range(number, len(code)):
            for character in code[end]:
                if character == '{':
                    depth += 1
                    started = True
                elif character == '}':
                    depth -= 1
            if started and depth <= 0:
                length = end - number + 1
                if length > MAX_FUNCTION:
                    problems.append(f'{path}:{number + 1}: function of {length} lines (at most {MAX_FUNCTION})')
                break
            if not started and end > number and code[end].strip() == '':
                break  # a protocol requirement: no body
    return problems


problems = [problem for path in sys.argv[1:] for problem in check(path)]
print('\n'.join(problems)) if problems else None
sys.exit(1 if problems else 0)
