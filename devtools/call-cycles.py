#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright(c) 2026 The DPDK RapidIO authors
"""File-level call cycles inside one source directory.

For each directory given (a driver, a library), lists the functions each .c
file defines and every use of them from another .c file of the same
directory (a call, or a function pointer taken, e.g. in an ops table), and
reports each set of files that use one another in a cycle, with the uses
that close it. Layering is one-way: a lower file never calls up; an upper
layer that must be told of a lower layer's event registers a callback.

It reads the C text itself (no compiler): comments, strings and
preprocessor lines are dropped, and a definition is a name followed by a
parameter list and a body at file scope. Uses through macros are not seen.

Usage: call-cycles.py [-v] DIR...  (exit 1 when a cycle is found)
       call-cycles.py --self-test
  -v: also list, per file, the functions it defines and the uses between files.
  --self-test: check the checker on small trees it writes (a cycle, none).
"""

import os
import re
import sys
import tempfile

KEYWORDS = {
	'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do', 'else', 'case',
	'goto', 'break', 'continue', 'default', 'typeof', '__typeof__',
	'__attribute__', 'alignof', '_Alignof', 'offsetof', 'static_assert',
	'_Static_assert', 'RTE_BUILD_BUG_ON',
}

TOKEN = re.compile(r'[A-Za-z_]\w*|\d[\w.]*|->|\S')


def strip_c(text):
	"""Text without comments, string and character literals, preprocessor lines."""
	out = []
	i, n = 0, len(text)
	at_line_start = True
	while i < n:
		c = text[i]
		if at_line_start and c == '#':
			# a preprocessor line, with its continuations
			while i < n and text[i] != '\n':
				if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
					i += 1
				i += 1
			continue
		if c == '/' and text.startswith('//', i):
			while i < n and text[i] != '\n':
				i += 1
			continue
		if c == '/' and text.startswith('/*', i):
			end = text.find('*/', i + 2)
			end = n if end < 0 else end + 2
			out.append('\n' * text.count('\n', i, end))
			i = end
			continue
		if c in '"\'':
			j = i + 1
			while j < n and text[j] != c:
				j += 2 if text[j] == '\\' else 1
			out.append(' 0 ')
			i = j + 1
			continue
		if c == '\n':
			at_line_start = True
		elif not c.isspace():
			at_line_start = False
		out.append(c)
		i += 1
	return ''.join(out)


def parse(path):
	"""(defined function names, [(user or None at file scope, used name)])."""
	with open(path, encoding='utf-8', errors='replace') as f:
		toks = TOKEN.findall(strip_c(f.read()))
	defined = []
	uses = []
	depth = 0
	current = None  # function whose body we are in
	body_depth = 0
	i, n = 0, len(toks)
	while i < n:
		t = toks[i]
		if depth == 0 and current is None and re.match(r'[A-Za-z_]', t) and \
				i + 1 < n and toks[i + 1] == '(' and t not in KEYWORDS:
			# find the matching ')' and see whether a body follows
			j, d = i + 1, 0
			while j < n:
				if toks[j] == '(':
					d += 1
				elif toks[j] == ')':
					d -= 1
					if d == 0:
						break
				j += 1
			k = j + 1
			# attributes after the parameter list: __rte_unused etc. are
			# on parameters; skip `__attribute__((...))` style tails
			while k < n and toks[k] not in ('{', ';', ',', '=', ')') and \
					toks[k] != '(':
				k += 1
			if k < n and toks[k] == '{':
				defined.append(t)
				current = t
				body_depth = 1
				depth = 1
				i = k + 1
				continue
			# a declaration or a file-scope use: fall through
		if t == '{':
			depth += 1
		elif t == '}':
			depth -= 1
			if current is not None and depth == 0:
				current = None
		elif re.match(r'[A-Za-z_]', t) and t not in KEYWORDS:
			prev = toks[i - 1] if i else ''
			# a member, or a struct/union/enum tag, is no use of a function
			if prev not in ('.', '->', 'struct', 'union', 'enum'):
				uses.append((current, t))
		i += 1
	return defined, uses


def tarjan(graph):
	"""Strongly connected components of more than one node."""
	index, low, on_stack, stack, comps = {}, {}, set(), [], []
	counter = [0]

	def visit(v):
		index[v] = low[v] = counter[0]
		counter[0] += 1
		stack.append(v)
		on_stack.add(v)
		for w in sorted(graph.get(v, ())):
			if w not in index:
				visit(w)
				low[v] = min(low[v], low[w])
			elif w in on_stack:
				low[v] = min(low[v], index[w])
		if low[v] == index[v]:
			comp = []
			while True:
				w = stack.pop()
				on_stack.discard(w)
				comp.append(w)
				if w == v:
					break
			if len(comp) > 1:
				comps.append(sorted(comp))

	sys.setrecursionlimit(10000)
	for v in sorted(graph):
		if v not in index:
			visit(v)
	return comps


def check_dir(d, verbose):
	files = sorted(f for f in os.listdir(d) if f.endswith('.c'))
	parsed = {f: parse(os.path.join(d, f)) for f in files}
	owner = {}  # function name -> files defining it
	for f, (defined, _) in parsed.items():
		for name in defined:
			owner.setdefault(name, set()).add(f)
	# edges[(a, b)] = {"user -> used"}: file a uses a function of file b
	edges = {}
	for f, (defined, uses) in parsed.items():
		for user, name in uses:
			homes = owner.get(name)
			if not homes or f in homes:
				continue  # not ours, or a (static) function of this file
			for home in homes:
				edges.setdefault((f, home), set()).add(
					'%s -> %s' % (user or '(file scope)', name))
	graph = {}
	for a, b in edges:
		graph.setdefault(a, set()).add(b)
	if verbose:
		print('== %s' % d)
		for f in files:
			print('%s defines %d: %s' % (f, len(parsed[f][0]), ' '.join(parsed[f][0])))
		for (a, b), calls in sorted(edges.items()):
			print('  %s -> %s: %s' % (a, b, ', '.join(sorted(calls))))
	cycles = tarjan(graph)
	for comp in cycles:
		print('%s: call cycle between %s' % (d, ', '.join(comp)))
		for a in comp:
			for b in comp:
				if (a, b) in edges:
					print('  %s -> %s: %s' % (a, b, ', '.join(sorted(edges[(a, b)]))))
	return len(cycles)


SELF_TEST = {
	# a.c calls b.c and b.c calls back through a function pointer it takes
	'cycle': ({
		'a.c': 'static int a_low(void) { return 1; }\n'
		       'int\na_top(void)\n{\n\treturn b_work() + a_low();\n}\n'
		       'void a_hook(void) { }\n',
		'b.c': '/* a_top() in a comment is no call */\n'
		       'int\nb_work(void)\n{\n\tvoid (*h)(void) = a_hook;\n'
		       '\th();\n\treturn 0;\n}\n',
	}, 1),
	# the same, the upper file registering its hook: no cycle; a struct tag
	# named like a function is no use of it
	'callback': ({
		'a.c': 'struct b_work { int x; };\n'
		       'void a_hook(void) { }\n'
		       'int\na_top(void)\n{\n\tb_register(a_hook);\n\treturn b_work();\n}\n',
		'b.c': 'static void (*hook)(void);\n'
		       'void\nb_register(void (*h)(void))\n{\n\thook = h;\n}\n'
		       'int\nb_work(void)\n{\n\tstruct b_work w = { 0 };\n'
		       '\tconst char *s = "a_top()";\n\thook();\n\treturn w.x + (s != 0);\n}\n',
	}, 0),
}


def self_test():
	bad = 0
	for name, (files, want) in SELF_TEST.items():
		with tempfile.TemporaryDirectory() as d:
			for fn, text in files.items():
				with open(os.path.join(d, fn), 'w') as f:
					f.write(text)
			got = check_dir(d, False)
		print('call-cycles: self-test %s: %d cycle(s), want %d' % (name, got, want))
		bad += got != want
	return 1 if bad else 0


def main(argv):
	if argv == ['--self-test']:
		return self_test()
	verbose = '-v' in argv
	dirs = [a for a in argv if a != '-v']
	if not dirs:
		print(__doc__.strip(), file=sys.stderr)
		return 2
	total = 0
	for d in dirs:
		if not os.path.isdir(d):
			print('call-cycles: error: %s is not a directory' % d, file=sys.stderr)
			return 2
		total += check_dir(d, verbose)
	print('call-cycles: %d cycle(s) in %d director%s' %
		(total, len(dirs), 'y' if len(dirs) == 1 else 'ies'))
	return 1 if total else 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
