#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The documentation holds together: every relative link in README.md and
# docs/*.md ([text](target), ![alt](target), [label]: target, and HTML
# href= and src=) names a file or directory that exists, relative to the
# file it is in; a link with an anchor into a markdown file names one of
# its headings, slugged as GitHub does (lower case, punctuation dropped,
# spaces to hyphens, -1, -2... for repeats); and README.md is at most 200
# lines. Links inside code (fenced blocks, `spans`) and links with a
# scheme (https:, mailto:) are not checked.
#
#   tests/host/16-doc-links.sh [FILE...]   check these instead (for tests)
set -eu
cd "$(dirname "$0")/../.."

max_readme_lines=200
bad=0

if [ $# -gt 0 ]; then
	files=("$@")
else
	files=(README.md docs/*.md)
fi
for f in "${files[@]}"; do
	[ -f "$f" ] || { echo "doc-links: no file $f"; exit 1; }
done

if [ -f README.md ]; then
	lines=$(wc -l <README.md)
	if [ "$lines" -gt "$max_readme_lines" ]; then
		echo "doc-links: README.md has $lines lines, more than $max_readme_lines"
		bad=1
	fi
fi

out=$(python3 - "${files[@]}" <<'PY'
import os
import re
import sys
import unicodedata

FENCE = re.compile(r'^\s*(```|~~~)')
HEADING = re.compile(r'^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$')
INLINE = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+"[^"]*")?\s*\)')
REFDEF = re.compile(r'^\s{0,3}\[[^\]]+\]:\s+(<[^>]*>|\S+)')
HTML = re.compile(r'''(?:href|src)\s*=\s*["']([^"']+)["']''')
CODESPAN = re.compile(r'(`+)(.+?)\1')


def prose_lines(path):
    """(line number, text) of every line outside fenced code."""
    fenced = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if not fenced:
                yield n, line.rstrip('\n')


def slug(text):
    """A heading's anchor, as GitHub makes it."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)   # links: their text
    text = text.replace('`', '')
    out = []
    for ch in text.lower():
        if ch in ' -_' or unicodedata.category(ch)[0] in 'LNM':
            out.append('-' if ch == ' ' else ch)
    return ''.join(out)


anchors_of = {}


def anchors(path):
    if path not in anchors_of:
        seen = {}
        found = set()
        for _, line in prose_lines(path):
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            found.add(base if k == 0 else '%s-%d' % (base, k))
        anchors_of[path] = found
    return anchors_of[path]


checked = 0
problems = 0
for doc in sys.argv[1:]:
    here = os.path.dirname(doc)
    for n, line in prose_lines(doc):
        plain = CODESPAN.sub('', line)
        targets = [m.group(1) for m in INLINE.finditer(plain)]
        targets += [m.group(1) for m in REFDEF.finditer(plain)]
        targets += [m.group(1) for m in HTML.finditer(plain)]
        for target in targets:
            target = target.strip('<>')
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue        # https:, mailto:, ...
            checked += 1
            path, _, anchor = target.partition('#')
            dest = os.path.normpath(os.path.join(here, path)) if path else doc
            where = '%s:%d: %s' % (doc, n, target)
            if not os.path.exists(dest):
                print('doc-links: %s: no such file or directory %s' % (where, dest))
                problems += 1
            elif anchor and dest.endswith('.md') and anchor not in anchors(dest):
                print('doc-links: %s: %s has no heading #%s' % (where, dest, anchor))
                problems += 1
print('doc-links: %d relative links in %d files checked, %d broken'
      % (checked, len(sys.argv) - 1, problems))
sys.exit(1 if problems else 0)
PY
) || bad=1
echo "$out"
exit "$bad"
