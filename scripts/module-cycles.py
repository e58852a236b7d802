#!/usr/bin/env python3
"""Finds modules that import each other, directly or in a longer circle.

For every crate under crates/ and each of its targets (the library, the binary of
src/main.rs, those of src/bin/), each source file is a module (inline modules such
as `mod tests { ... }` count as part of their file's); a module behind a feature
(`#[cfg(feature = "mpi")] mod x;`) counts too. An import is any path that
names another module of the same crate: `use crate::...`, `use super::...`,
`use self::...`, a child module by name, and the same paths written inline in
code (`crate::table::prefetch(...)`). A path to an item goes to the module that
defines the item, through every `pub use` on the way, so an item used through a
crate-root re-export is an import of its defining module, not of the root.

Prints each circle and exits 1 if there is any, else prints "no cycles" and
exits 0. Plain python3, standard library only.

    python3 scripts/module-cycles.py [--edges] [ROOT]

With --edges it also prints every module's imports.
"""

import pathlib
import re
import sys

ITEM = re.compile(
    r"\b(?:fn|struct|enum|union|trait|type|const|static|mod|macro_rules!)\s+(\w+)"
)
USE = re.compile(r"\buse\s+([^;]+);")
INLINE_PATH = re.compile(r"(?<![\w:])((?:crate|super|self)(?:::\w+)+|\w+(?:::\w+)+)")
MOD_DECL = re.compile(r"\bmod\s+(\w+)\s*;")


def strip(text):
    """The code without comments, strings and character literals."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r'r(#*)".*?"\1', '""', text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text, flags=re.S)
    return re.sub(r"'(?:\\.|[^'\\])'", "' '", text)


def expand(tree):
    """`a::{b, c::{d, e as f}}` as the paths a::b, a::c::d, a::c::e."""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    brace = tree.find("{")
    if brace < 0:
        return [tree]
    prefix, inner = tree[:brace], tree[brace + 1:tree.rindex("}")]
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(inner):
        depth += ch == "{"
        depth -= ch == "}"
        if ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    paths = []
    for part in filter(None, parts):
        for path in expand(part):
            paths.append(prefix + path if path != "self" else prefix.rstrip(":"))
    return paths


def inline_bodies(code):
    """The spans of the bodies of inline modules (`mod tests { ... }`)."""
    spans = []
    for match in re.finditer(r"\bmod\s+\w+\s*\{", code):
        depth = 0
        for i in range(match.end() - 1, len(code)):
            depth += code[i] == "{"
            depth -= code[i] == "}"
            if depth == 0:
                spans.append((match.end(), i))
                break
    return spans


class Crate:
    def __init__(self, root):
        self.modules = {}  # module path (tuple) -> stripped code
        self.load((), root)

    def load(self, module, path):
        code = strip(path.read_text())
        self.modules[module] = code
        is_root = not module or path.name == "mod.rs"
        directory = path.parent if is_root else path.parent / path.stem
        for name in MOD_DECL.findall(code):
            for child in (directory / f"{name}.rs", directory / name / "mod.rs"):
                if child.exists():
                    self.load(module + (name,), child)
                    break

    def children(self, module):
        return {m[-1] for m in self.modules if m[:-1] == module and len(m) == len(module) + 1}

    def reexports(self, module):
        """Name -> full path of each `pub use` of the module (`*` for globs)."""
        found = {}
        for tree in re.findall(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", self.modules[module]):
            for path in expand(tree):
                absolute = self.absolute(module, path.split("::"))
                if absolute is not None:
                    found.setdefault(absolute[-1], []).append(absolute)
        return found

    def absolute(self, module, segments):
        """The path from the crate root, or None for another crate's path."""
        head = segments[0]
        if head == "crate":
            return tuple(segments[1:])
        if head == "self":
            return module + tuple(segments[1:])
        if head == "super":
            base = module
            while segments and segments[0] == "super":
                base, segments = base[:-1], segments[1:]
            return base + tuple(segments)
        if head in self.children(module):
            return module + tuple(segments)
        return None

    def definer(self, path, seen=()):
        """The module that defines what `path` (from the root) names."""
        module = ()
        for i, segment in enumerate(path):
            if module + (segment,) in self.modules:
                module += (segment,)
                continue
            if path in seen:
                return module
            rest = path[i:]
            exports = self.reexports(module)
            if rest[0] in exports and rest[0] not in ITEM.findall(self.modules[module]):
                return self.definer(exports[rest[0]][0] + rest[1:], seen + (path,))
            for glob in exports.get("*", []):
                target = glob[:-1] + rest
                if self.defines(target):
                    return self.definer(target, seen + (path,))
            return module
        return module

    def defines(self, path):
        module = path[:-1]
        return module in self.modules and path[-1] in ITEM.findall(self.modules[module])

    def edges(self):
        graph = {module: set() for module in self.modules}
        for module, code in self.modules.items():
            spans = inline_bodies(code)
            found = [(m.start(), p) for m in USE.finditer(code) for p in expand(m.group(1))]
            code_without_uses = USE.sub(lambda m: " " * len(m.group(0)), code)
            found += [(m.start(), m.group(1)) for m in INLINE_PATH.finditer(code_without_uses)]
            for at, path in found:
                segments = path.split("::")
                # `super` inside an inline module names the file's module first.
                inner = sum(start <= at < end for start, end in spans)
                while inner and segments[0] == "super":
                    segments, inner = ["self"] + segments[1:], inner - 1
                    if len(segments) > 1 and segments[1] == "super":
                        segments = segments[1:]
                absolute = self.absolute(module, segments)
                if not absolute:
                    continue
                target = self.definer(absolute)
                if target != module:
                    graph[module].add(target)
        return graph


def cycles(graph):
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    sys.setrecursionlimit(10_000)
    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def name(crate, module):
    return crate + ("::" + "::".join(module) if module else " (root)")


def main():
    args = [arg for arg in sys.argv[1:] if arg != "--edges"]
    root = pathlib.Path(args[0] if args else ".")
    bad = 0
    targets = []
    for src in sorted(root.glob("crates/*/src")):
        package = src.parent.name
        if (src / "lib.rs").exists():
            targets.append((package, src / "lib.rs"))
        if (src / "main.rs").exists():
            targets.append((f"{package} (binary)", src / "main.rs"))
        targets += [(f"{package} (binary {b.stem})", b) for b in sorted(src.glob("bin/*.rs"))]
    for crate, target in targets:
        graph = Crate(target).edges()
        if "--edges" in sys.argv:
            for module in sorted(graph):
                targets = ", ".join(name(crate, t) for t in sorted(graph[module]))
                print(f"{name(crate, module)} -> {targets}")
        for component in cycles(graph):
            bad += 1
            members = set(component)
            print(f"cycle in {crate}: " + ", ".join(name(crate, m) for m in component))
            for module in component:
                for target in sorted(graph[module] & members):
                    print(f"  {name(crate, module)} -> {name(crate, target)}")
    if bad:
        print(f"{bad} cycle(s)")
        return 1
    print("no cycles")
    return 0


if __name__ == "__main__":
    sys.exit(main())
