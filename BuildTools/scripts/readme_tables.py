#!/usr/bin/env python3
"""The README's layering tables, written from Package.swift so they cannot drift from it.

    readme_tables.py [--check] [README.md] [Package.swift]

Rewrites, in the root README: the area table's "may depend on" column (from `Area.mayDependOn`), and in the module
table each row's area and its "imported by" column: the library modules whose `deps` name one of the row's modules,
then the apps whose `links` do (test targets are left out; a module no library or app imports says so). With
--check it writes nothing and exits 1 when the README differs, naming the rows (`make lint` runs it so). Every module
of the manifest must have a row; a row must name only modules the manifest has.
"""
import re
import sys


def parse_manifest(text):
    areas = {}
    block = text[text.index("var mayDependOn: Set<Area> {"):text.index("/// Single-module exceptions")]
    for name, deps in re.findall(r"case \.(\w+)(?:, \.\w+)*: return (\[[^\]]*\]|Set\(Area\.allCases\)[^\n]*)", block):
        areas[name] = deps
    modules = {}
    for kind, name, area, rest in re.findall(
            r"\.(swift|testSupport)\(\s*\"(\w+)\",\s*\.(\w+)((?:[^()]|\([^()]*\))*)\)", text):
        deps = re.search(r"deps:\s*\[([^\]]*)\]", rest)
        modules[name] = {"area": area, "deps": re.findall(r"\"(\w+)\"", deps.group(1)) if deps else [],
                         "testSupport": kind == "testSupport"}
    for name, wrapper in re.findall(r"\.system\(\"(\w+)\",[^)]*wrapper: \"(\w+)\"\)", text):
        modules[name] = {"area": "System", "deps": [], "testSupport": False}
    for name, wrapper in re.findall(r"\.cShims\(\"(\w+)\",[^)]*wrapper: \"(\w+)\"", text):
        modules[name] = {"area": "System", "deps": [], "testSupport": False}
    apps = {}
    for name, links in re.findall(r"\.app\(\s*\"([\w-]+)\",(?:\s*in: \.\w+,)?\s*links:\s*\[([^\]]*)\]", text):
        apps[name] = re.findall(r"\"(\w+)\"", links)
    return areas, modules, apps


def area_cell(deps):
    if deps.startswith("Set("):
        return "any library area, within each app's subset"
    names = re.findall(r"\.(\w+)", deps)
    return ", ".join(names) if names else "nothing"


def importers(names, modules, apps):
    libraries = sorted({m for m, info in modules.items() if m not in names and any(n in info["deps"] for n in names)})
    linking = sorted({a for a, links in apps.items() if any(n in links for n in names)})
    parts = []
    if libraries:
        parts.append(", ".join(libraries))
    if linking:
        parts.append("apps: " + ", ".join(linking))
    return "; ".join(parts) if parts else "tests only"


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    check = "--check" in sys.argv
    readme = args[0] if args else "README.md"
    manifest = args[1] if len(args) > 1 else "Package.swift"
    areas, modules, apps = parse_manifest(open(manifest, encoding="utf-8").read())
    lines = open(readme, encoding="utf-8").read().split("\n")
    out, problems, seen, seen_areas = [], [], set(), set()
    table = None
    for line in lines:
        if line.startswith("| area | may depend on |"):
            table = "areas"
        elif line.startswith("| module | area | purpose |"):
            table = "modules"
        elif not line.startswith("|"):
            table = None
        if table == "areas" and line.startswith("| ") and not line.startswith("| area ") and not line.startswith("|---"):
            name = line.split("|")[1].strip()
            seen_areas.add(name)
            if name in areas:
                line = "| %s | %s |" % (name, area_cell(areas[name]))
            elif name == "Apps, BuildTools":
                line = "| %s | %s |" % (name, area_cell(areas.get("Apps", "Set(")))
        if table == "modules" and line.startswith("| ") and not line.startswith("| module ") and not line.startswith("|---"):
            first, area, rest = line[2:].split(" | ", 2)
            purpose = rest.rsplit(" | ", 1)[0]
            names = [n.strip() for n in first.split(",")]
            unknown = [n for n in names if n not in modules]
            if unknown:
                problems.append("README row '%s' names modules the manifest does not have: %s" % (first, ", ".join(unknown)))
            else:
                seen.update(names)
                row_areas = sorted({modules[n]["area"] for n in names})
                area = ", ".join(row_areas)
                who = "tests only (`testDeps`)" if all(modules[n]["testSupport"] for n in names) else importers(names, modules, apps)
                line = "| %s | %s | %s | %s |" % (first, area, purpose, who)
        out.append(line)
    for name in sorted(set(areas) - seen_areas - {"Apps", "BuildTools"}):
        problems.append("area %s has no row in %s's area table" % (name, readme))
    missing = sorted(set(modules) - seen)
    for name in missing:
        problems.append("module %s (%s) has no row in %s's module table" % (name, modules[name]["area"], readme))
    text = "\n".join(out)
    if check:
        old = "\n".join(lines)
        if old != text:
            for before, after in zip(lines, out):
                if before != after:
                    problems.append("out of date: %s" % before[:100])
        for problem in problems:
            print("readme-tables: " + problem)
        if problems:
            print("readme-tables: run `make readme-tables` (and add rows for new modules)")
        sys.exit(1 if problems else 0)
    open(readme, "w", encoding="utf-8").write(text)
    for problem in problems:
        print("readme-tables: " + problem)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
