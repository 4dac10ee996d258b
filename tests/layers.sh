#!/bin/sh
# layers.sh - no circle among the modules of the library (src/lib) nor among
# those of the command line (src/cli): where a module calls a function or
# reads a table of another, found in the compiled objects (nm), and where a
# file includes another's header (what a header carries inline shows in no
# object), the arrows make an order, lowest first, with no arrow back up.
# A circle fails with the arrows that make it and the names each one
# carries.
# And every module of the library is found by name among the tests: a
# unit test of its own name (tests/unit/test_MODULE.c), or its line in
# tests/README saying where it is tested.
set -u
b=${top_builddir:-.}

# One module's arrows: "D MODULE NAME" for what it defines, "U MODULE NAME"
# for what it uses.
symbols() {   # OBJECT...
    for o in "$@"; do
        [ -f "$o" ] || continue
        m=${o##*/}
        m=${m#*-}
        m=${m%.o}
        nm "$o" | awk -v m="$m" '
            NF == 3 && $2 ~ /^[TDBRCG]$/ { print "D", m, $3 }
            NF == 2 && $1 == "U" { print "U", m, $2 }'
    done | sort -u
}

# The same of each member of a static archive (the library's objects, as
# tests/symbols.sh reads them).
archive_symbols() {
    [ -f "$1" ] || return 0
    nm -A "$1" | awk '
        { split($1, f, ":"); m = f[2]; sub(/^[^-]*-/, "", m); sub(/\.o$/, "", m) }
        NF == 3 && $2 ~ /^[TDBRCG]$/ { print "D", m, $3 }
        NF == 3 && $2 == "U" { print "U", m, $3 }' | sort -u
}

# The arrows between modules, from D/U lines: "A FROM TO NAME" for each
# name a module uses that another defines; other lines pass through.
arrows() {
    awk '
        $1 == "D" { owner[$3] = $2; next }
        $1 == "U" { use[++n] = $2 " " $3; next }
        { print }
        END {
            for (i = 1; i <= n; i++) {
                split(use[i], u, " ")
                o = owner[u[2]]
                if (o != "" && o != u[1])
                    print "A", u[1], o, u[2]
            }
        }'
}

# The arrows between modules, then the modules peeled off from the bottom
# (those that call no module left) and from the top: what is left is a
# circle.
circles() {
    arrows | awk '
        $1 == "A" {
            u[1] = $2; o = $3; u[2] = $4
            if (!((u[1], o) in edge)) {
                edge[u[1], o] = u[2]
                out[u[1]]++
                nodes[u[1]]; nodes[o]
            } else if (length(edge[u[1], o]) < 60) {
                edge[u[1], o] = edge[u[1], o] " " u[2]
            }
        }
        END {
            do {
                m = 0
                for (v in nodes)
                    if (!out[v])
                        bottom[++m] = v
                for (i = 1; i <= m; i++) {
                    delete nodes[bottom[i]]
                    for (k in edge) {
                        split(k, e, SUBSEP)
                        if (e[2] == bottom[i] && !(k in gone)) {
                            out[e[1]]--
                            gone[k]
                        }
                    }
                }
            } while (m)
            # and from the top (those no module left calls), so that what
            # is left is the circles alone.
            do {
                m = 0
                for (k in edge)
                    if (!(k in gone)) {
                        split(k, e, SUBSEP)
                        if ((e[1] in nodes) && (e[2] in nodes))
                            called[e[2]]
                    }
                for (v in nodes)
                    if (!(v in called))
                        top[++m] = v
                for (i = 1; i <= m; i++)
                    delete nodes[top[i]]
                for (v in called)
                    delete called[v]
            } while (m)
            for (k in edge) {
                split(k, e, SUBSEP)
                if (!(k in gone) && (e[1] in nodes) && (e[2] in nodes))
                    print "  " e[1] " -> " e[2] ": " edge[k]
            }
        }' | sort
}

# The same arrows from the sources' includes: "D MODULE HEADER" for each
# header (its module: the .c of its name, or the header alone), "U MODULE
# HEADER" for each header a file includes -- so that a circle made by what
# headers carry inline (which no object shows) is found too.  A header is
# named by its path from the folder that holds the including file (the
# library's wings include each other's as "../WING/NAME.h").
includes() {   # DIR
    for f in "$1"/*.c "$1"/*.h "$1"/*/*.c "$1"/*/*.h; do
        [ -f "$f" ] || continue
        name=${f##*/}
        m=${name%.*}
        dir=${f%/*}
        case $name in *.h) echo "D $m $name" ;; esac
        sed -n 's/^#include "\([^"]*\.h\)".*/\1/p' "$f" | while read -r h; do
            [ -f "$dir/$h" ] && echo "U $m ${h##*/}"
        done
    done | sort -u
}

# The wing of each module of the library: "W MODULE WING RANK", by the
# folder it lies in.  A wing may use its own modules and those of wings of
# a lower rank only (src/lib/README).
wings() {
    for f in "${top_srcdir:-.}"/src/lib/*/*.c "${top_srcdir:-.}"/src/lib/*/*.h; do
        [ -f "$f" ] || continue
        name=${f##*/}
        w=${f%/*}
        w=${w##*/}
        case $w in
        base) r=0 ;; engine) r=1 ;; records) r=2 ;; analysis|notations|xml) r=3 ;;
        front) r=4 ;; *) r=-1 ;;
        esac
        echo "W ${name%.*} $w $r"
    done
    # made by make, in the build tree
    echo "W schema xml 3"
    echo "W rulefiles xml 3"
    echo "W rulespecs engine 1"
}

# The arrows (D/U lines on standard input, wings() first) that run from a
# wing to one above it or beside it, or from a module in no known wing.
against_wings() {
    arrows | awk '
        $1 == "W" { wing[$2] = $3; rank[$2] = $4; next }
        $1 == "A" {
            if (!($2 in rank) || !($3 in rank) || rank[$2] < 0 || rank[$3] < 0)
                print "  " $2 " -> " $3 ": a module in no wing (" $4 ")"
            else if (wing[$2] != wing[$3] && rank[$3] >= rank[$2])
                print "  " $2 " (" wing[$2] ") -> " $3 " (" wing[$3] "): " $4
        }' | sort -u
}

fail=0 modules=0
for part in lib cli; do
    found=$(includes "${top_srcdir:-.}/src/$part" | circles)
    if [ -n "$found" ]; then
        echo "FAIL src/$part: files that include one another round a circle:"
        printf '%s\n' "$found"
        fail=$((fail + 1))
    fi
done
for part in lib cli; do
    case $part in
    lib) list=$(archive_symbols "$b/src/.libs/libpmncore.a") ;;
    cli) list=$(symbols "$b"/src/cli/pmn-*.o) ;;
    esac
    n=$(printf '%s\n' "$list" | awk '{ print $2 }' | sort -u | grep -c .)
    if [ "$n" -lt 5 ]; then
        echo "FAIL src/$part: no objects found under $b (built?)"
        fail=$((fail + 1))
        continue
    fi
    modules=$((modules + n))
    if [ $part = lib ]; then
        found=$( { wings; printf '%s\n' "$list"; includes "${top_srcdir:-.}/src/lib"; } |
                 against_wings)
        if [ -n "$found" ]; then
            echo "FAIL src/lib: arrows from a wing to one above or beside it:"
            printf '%s\n' "$found"
            fail=$((fail + 1))
        fi
    fi
    found=$(printf '%s\n' "$list" | circles)
    if [ -n "$found" ]; then
        echo "FAIL src/$part: modules that call one another round a circle:"
        printf '%s\n' "$found"
        fail=$((fail + 1))
    fi
done
echo "layers: $modules modules, $fail parts with a circle or not found"

t=${top_srcdir:-.}
unnamed=
for c in "$t"/src/lib/*/*.c; do
    m=${c##*/}
    m=${m%.c}
    [ -f "$t/tests/unit/test_$m.c" ] || grep -q "^    $m " "$t/tests/README" || unnamed="$unnamed $m"
done
if [ -n "$unnamed" ]; then
    echo "FAIL library modules with no test_MODULE.c and no line in tests/README:$unnamed"
    fail=$((fail + 1))
fi
[ $fail = 0 ]
