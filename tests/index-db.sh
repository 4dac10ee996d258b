# index-db.sh - sourced by the CLI cases of the archive index (pmn index,
# --index), so that each case runs against both databases with the same
# expected output: against SQLite files under tests/cli.sh, and against a
# PostgreSQL server under tests/postgres.sh, which sets PMN_TEST_PG to the
# folder of the server's socket (its superuser pmn, trusted there).
#   d=$(mktemp -d)   the case's scratch folder, made by the case
#   newdb NAME       the address of a new index NAME: $d/NAME.db, or a new
#                    database on the server (postgresql:///NAME_x<pid>?...)
#   shown            a filter that writes either as NAME.db
newdb() {
    if [ -n "${PMN_TEST_PG:-}" ]; then
        createdb -h "$PMN_TEST_PG" -U pmn "$1_x$$" || exit 99
        echo "postgresql:///$1_x$$?host=$PMN_TEST_PG&user=pmn"
    else
        echo "$d/$1.db"
    fi
}
shown() {
    sed -e "s|$d/\([A-Za-z0-9]*\)\.db|\1.db|g" \
        -e "s|postgresql:///\([A-Za-z0-9]*\)_x$$?host=${PMN_TEST_PG:-/}&user=pmn|\1.db|g"
}
