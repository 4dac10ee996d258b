#!/bin/sh
# postgres.sh - the archive index on a real PostgreSQL server, not a mock.
#
# A throwaway server is made here: a cluster in a temporary folder
# (initdb), run by an unprivileged user (nobody, when the tests run as
# root; else whoever runs them), listening on a Unix socket in that folder
# and on no network, its superuser pmn trusted there; stopped and removed
# at the end, whatever happens.  Against it run
#   - every CLI case of the index written for both databases (those that
#     source tests/index-db.sh), with the same expected output as under
#     SQLite: newdb makes each of its indexes a new database on the server;
#   - the cases of tests/pg, which only a server has (the server gone in
#     the middle of a build, a database that is not an index, no server).
# The bootstrap installs Debian's postgresql-15 (the server, initdb) and
# libpq-dev (the client library pmn is built with).
set -u
. "${top_srcdir:-.}/tests/common.sh"

if "$PMN" index info 'postgresql:///x?host=/nonexistent' 2>&1 | grep -q 'built without'; then
    echo "postgres: this pmn was built without PostgreSQL (configure --without-postgresql)"
    exit 77
fi
bindir=$(pg_config --bindir 2>/dev/null)
[ -x "$bindir/initdb" ] || bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | tail -1)
if [ ! -x "$bindir/initdb" ] || [ ! -x "$bindir/createdb" ]; then
    echo "postgres: no PostgreSQL server (initdb, createdb): ./bootstrap as root installs" \
         "the Debian package postgresql-15"
    exit 99
fi

# The cluster's folder: the server's user must own it, and the socket's
# path be short (108 bytes at most).
pg=$(mktemp -d /tmp/pmn-pg.XXXXXX) || exit 99
as=
if [ "$(id -u)" = 0 ]; then
    chown nobody "$pg" && chmod 755 "$pg" || exit 99
    as="runuser -u nobody --"
fi
cat > "$pg/pgctl" <<EOF
#!/bin/sh
# pgctl start|stop: the test server (tests/postgres.sh); stop is immediate,
# as a server that dies.
case \$1 in
start) $as "$bindir/pg_ctl" -D "$pg/data" -l "$pg/log" -w -t 60 \\
           -o "-c listen_addresses= -c unix_socket_directories=$pg -c fsync=off" start > /dev/null ;;
stop) $as "$bindir/pg_ctl" -D "$pg/data" -m immediate -w stop > /dev/null ;;
esac
EOF
cleanup() {
    sh "$pg/pgctl" stop 2>/dev/null
    rm -rf "$pg" "$work"
}
trap cleanup EXIT
trap 'exit 99' INT TERM HUP

if ! $as "$bindir/initdb" -D "$pg/data" -U pmn --auth=trust -E UTF8 --locale=C \
        > "$pg/initdb.log" 2>&1; then
    echo "postgres: initdb failed:"; cat "$pg/initdb.log"
    exit 99
fi
if ! sh "$pg/pgctl" start; then
    echo "postgres: the server did not start:"; cat "$pg/log"
    exit 99
fi

PMN_TEST_PG=$pg PMN_TEST_PG_CTL=$pg/pgctl PATH=$bindir:$PATH
export PMN_TEST_PG PMN_TEST_PG_CTL PATH
unset PMN_TEST_PART
status=0
# The cases of both databases, never blessed from here: their expected
# output is SQLite's, which the server's must equal.
echo "the index's cases, against PostgreSQL:"
PMN_TEST_BLESS= PMN_TEST_MATCH='tests/index-db[.]sh' PMN=$PMN sh "$top_srcdir/tests/cli.sh" ||
    status=1
echo "the store's unit test (tests/unit/test_store), against PostgreSQL:"
if createdb -h "$pg" -U pmn unit; then
    PMN_TEST_PG_URI="postgresql:///unit?host=$pg&user=pmn" \
        "${top_builddir:-.}/tests/unit/test_store" || status=1
else
    status=1
fi
echo "the server's own cases (tests/pg):"
PMN_TEST_MATCH= PMN_TEST_CASES=tests/pg PMN=$PMN sh "$top_srcdir/tests/cli.sh" || status=1
exit $status
