#!/bin/sh
# rulefile.sh - one owner for the rule options: the table of rules.c (what
# `pmn rules options` lists) and the schema of rule files (grammar/rules.rng,
# which `pmn rules schema` prints) name the same options with the same
# values, and every value of the table, written into a rule file, is one
# the schema takes (xmllint) and pmn reads back as that value (`pmn rules
# show FILE`, its Spec line) in a built-in set whose other options it goes
# with (of a range, its bounds to the schema; its lowest and 2 to pmn, as
# 65535 seeds a hole is more than a board may hold).  An option the table lacks, one the schema
# lacks, or a value either refuses fails here.  Skipped (77) without
# python3 or xmllint.
set -u
. "${top_srcdir:-.}/tests/common.sh"
command -v python3 > /dev/null && command -v xmllint > /dev/null ||
    { echo "SKIP: no python3 or no xmllint"; exit 77; }
"$PMN" rules options > "$work/options" || { echo "pmn rules options failed"; exit 1; }
# The bases a value is tried on: the first whose other options it goes
# with (capture=front needs cycle=own-rows: Hawalis's).
for base in kalah hawalis anywoli oware; do
    "$PMN" rules xml $base > "$work/$base.xml" || { echo "pmn rules xml $base failed"; exit 1; }
done
PMN=$PMN work=$work schema=$top_srcdir/grammar/rules.rng python3 - <<'PY'
import os, re, subprocess, sys
import xml.etree.ElementTree as ET

work, pmn, schema = os.environ["work"], os.environ["PMN"], os.environ["schema"]
RNG = "{http://relaxng.org/ns/structure/1.0}"
RULES = "urn:x-pmn:rules:1"
fail = 0

def bad(what):
    global fail
    fail += 1
    print("FAIL " + what)

# The schema's options: each attribute of the rule elements, its element
# and its values (None: a count).
grammar = ET.parse(schema).getroot()
defines = {d.get("name"): d for d in grammar.iter(RNG + "define")}
def values_of(node):
    vals = [v.text for v in node.iter(RNG + "value")]
    for ref in node.iter(RNG + "ref"):
        if ref.get("name") == "count":
            return None
        vals += [v.text for v in defines[ref.get("name")].iter(RNG + "value")]
    return vals
in_schema = {}
for element in grammar.iter(RNG + "element"):
    if element.get("name") not in ("board", "sowing", "capture", "turn", "end"):
        continue
    for attr in element.iter(RNG + "attribute"):
        name = attr.get("name")
        option = "capture" if (element.get("name"), name) == ("capture", "kind") else name
        in_schema[option] = (element.get("name"), name, values_of(attr))

# The table's options: "  name=a|b|c" or "  name=LOW..HIGH".
in_table = {}
for line in open(os.path.join(work, "options")):
    m = re.match(r"^  ([a-z-]+)=(\S+)$", line)
    if m:
        v = m.group(2)
        r = re.match(r"^(\d+)\.\.(\d+)$", v)
        in_table[m.group(1)] = (int(r.group(1)), int(r.group(2))) if r else v.split("|")
if len(in_table) < 10:
    bad("pmn rules options lists %d options" % len(in_table))
for o in sorted(set(in_table) - set(in_schema)):
    bad("the option %s is in the table, not in grammar/rules.rng" % o)
for o in sorted(set(in_schema) - set(in_table)):
    bad("the attribute %s of <%s> is in grammar/rules.rng, not in the table"
        % (in_schema[o][1], in_schema[o][0]))

ET.register_namespace("", RULES)
tried = 0
for o in sorted(set(in_table) & set(in_schema)):
    element, attr, schema_values = in_schema[o]
    table = in_table[o]
    if isinstance(table, tuple):
        values = [str(table[0]), str(table[1])]
        if schema_values is not None and sorted(schema_values) != values:
            bad("%s: the table's %s..%s, the schema's %s" % (o, table[0], table[1], schema_values))
    else:
        values = table
        if schema_values is None or sorted(schema_values) != sorted(values):
            bad("%s: the table's values %s, the schema's %s" % (o, values, schema_values))
    readable = values if not isinstance(table, tuple) else \
        [str(table[0])] + (["2"] if table[0] < 2 <= table[1] else [])
    for v in values:
        said = []
        for base in ("kalah", "hawalis", "anywoli", "oware"):
            tree = ET.parse(os.path.join(work, base + ".xml"))
            root = tree.getroot()
            root.set("name", "tried")
            e = root.find("{%s}%s" % (RULES, element))
            if e is None:
                # (turn is optional: made where the set has none, before end)
                e = ET.Element("{%s}%s" % (RULES, element))
                root.insert(list(root).index(root.find("{%s}end" % RULES)), e)
            e.set(attr, v)
            path = os.path.join(work, "tried.xml")
            tree.write(path, xml_declaration=True, encoding="UTF-8")
            lint = subprocess.run(["xmllint", "--noout", "--relaxng", schema, path],
                                  capture_output=True, text=True)
            if lint.returncode != 0:
                bad("%s=%s: the schema refuses it: %s" % (o, v, lint.stderr.strip()))
                break
            if v not in readable:
                said = None
                break
            show = subprocess.run([pmn, "rules", "show", path], capture_output=True, text=True)
            spec = re.search(r"^Spec: +(\S+)", show.stdout, re.M)
            if show.returncode == 0 and spec and "%s=%s" % (o, v) in spec.group(1).split(","):
                said = None
                break
            said.append("%s: %s" % (base, show.stderr.strip() or
                                    (spec.group(1) if spec else show.stdout[:80])))
        if said:
            bad("%s=%s: pmn reads it back in no built-in set: %s" % (o, v, "; ".join(said)))
        tried += 1
print("rulefile: %d options in the table and the schema, %d values written, "
      "checked and read back, %d failed" % (len(in_table), tried, fail))
sys.exit(1 if fail else 0)
PY
