#!/usr/bin/env bash
# A throwaway MariaDB primary and read replica (GTID replication) of their own, for the replica test
# (test/replica) and by hand: two `mariadbd` processes on data folders, sockets and loopback ports under <dir>,
# away from any MariaDB the machine runs. Needs `mariadbd`, `mariadb-install-db` and `mariadb` on the PATH (or
# /usr/sbin); the servers run as the calling user (root too), and their root has no password (loopback and sockets
# under <dir> only).
#
#   start <dir>            installs and starts both, sets up replication, prints the service's URLs:
#                            DATABASE_URL=mysql://tracker:…@127.0.0.1:<primary>/tracker      (every privilege on it)
#                            DATABASE_REPLICA_URLS=mysql://reader:…@127.0.0.1:<replica>/tracker  (SELECT only)
#                          (also written to <dir>/urls.env; ports from PRIMARY_PORT/REPLICA_PORT, else free ones)
#   stop <dir>             kills both and removes <dir> (their data with it)
#   delay <dir> <seconds>  the replica applies each event that many seconds late (MASTER_DELAY)
#   sql-thread <dir> stop|start
#                          stops or starts applying (the replica's SQL thread); events still arrive
#   kill-replica <dir>     kill -9 of the replica's process
#   start-replica <dir>    starts the replica again (replication resumes where it left off)
#   stop-primary <dir>     a clean shutdown of the primary;  start-primary <dir>: starts it again
#   sync <dir>             waits (up to 30 s) until the replica has applied all the primary has written
#   replica-reads <dir>        the SELECTs the replica served its SELECT-only user since it started (userstat)
#   sql <dir> primary|replica <statement>
#                          runs a statement as the server's root (through its socket), tab-separated answer
set -euo pipefail

command="${1:?usage: replica-cluster.sh start|stop|delay|sql-thread|kill-replica|start-replica|stop-primary|start-primary|sync|replica-reads|sql <dir> …}"
dir="${2:?the folder of the cluster}"
export PATH="$PATH:/usr/sbin:/usr/local/sbin"
# Passwords are fixed: the servers listen on loopback only, and live as long as a test run.
tracker_password=tracker-password-1
reader_password=reader-password-1

server_pid() { cat "$dir/$1/mariadbd.pid" 2>/dev/null; }
running() { local pid; pid="$(server_pid "$1")" && kill -0 "$pid" 2>/dev/null; }
sql() { mariadb --no-defaults --socket="$dir/$1/mariadbd.sock" --user=root --batch --skip-column-names -e "$2"; }

# The server's options; the replica applies what it receives, takes no other writes and counts its users' statements
# (userstat: the test sees whether the service reads from it).
write_config() {
  local name="$1" port="$2" id="$3"
  {
    echo "[mariadbd]"
    echo "datadir=$dir/$name/data"
    echo "socket=$dir/$name/mariadbd.sock"
    echo "pid-file=$dir/$name/mariadbd.pid"
    echo "log-error=$dir/$name/error.log"
    echo "port=$port"
    echo "bind-address=127.0.0.1"
    echo "server-id=$id"
    echo "skip-name-resolve"
    echo "performance-schema=OFF"
    echo "innodb-buffer-pool-size=64M"
    echo "innodb-log-file-size=8M"
    # A process killed keeps what it wrote in the OS's cache; only the OS failing would lose it.
    echo "innodb-flush-log-at-trx-commit=2"
    echo "character-set-server=utf8mb4"
    echo "collation-server=utf8mb4_unicode_ci"
    if [ "$name" = primary ]; then
      echo "log-bin=$dir/primary/data/binlog"
      echo "sync-binlog=0"
    else
      echo "relay-log=$dir/replica/data/relay"
      echo "read-only=1"
      echo "userstat=1"
    fi
    if [ "$(id -u)" = 0 ]; then echo "user=root"; fi
  } > "$dir/$name.cnf"
}

start_server() {
  local name="$1"
  mariadbd --defaults-file="$dir/$name.cnf" < /dev/null > /dev/null 2>&1 &
  for _ in $(seq 1 300); do
    if sql "$name" 'SELECT 1' > /dev/null 2>&1; then return; fi
    if ! kill -0 $! 2>/dev/null; then echo "the $name server stopped while starting:" >&2; tail -20 "$dir/$name/error.log" >&2; exit 1; fi
    sleep 0.05
  done
  echo "the $name server did not start in 15 s" >&2
  exit 1
}

# Sends the signal to the server's process and waits until it is gone.
signal_server() {
  local pid
  pid="$(server_pid "$2")" || return 0
  kill "-$1" "$pid" 2>/dev/null || return 0
  while kill -0 "$pid" 2>/dev/null; do sleep 0.02; done
}

free_port() { node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })"; }

start() {
  [ ! -e "$dir/urls.env" ] || { echo "$dir holds a cluster already" >&2; exit 1; }
  mkdir -p "$dir/primary" "$dir/replica"
  local primary_port="${PRIMARY_PORT:-$(free_port)}" replica_port="${REPLICA_PORT:-$(free_port)}"
  write_config primary "$primary_port" 1
  write_config replica "$replica_port" 2
  # One installation, with the service's database and users, copied for the replica: both start equal, and
  # replication carries everything after that (the primary's binary log begins at its first start).
  cat > "$dir/users.sql" <<SQL
FLUSH PRIVILEGES;
CREATE DATABASE tracker CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER 'tracker'@'127.0.0.1' IDENTIFIED BY '$tracker_password';
GRANT ALL PRIVILEGES ON tracker.* TO 'tracker'@'127.0.0.1';
CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY '$reader_password';
GRANT SELECT ON tracker.* TO 'reader'@'127.0.0.1';
CREATE USER 'replication'@'127.0.0.1' IDENTIFIED BY 'replication-password-1';
GRANT REPLICATION SLAVE ON *.* TO 'replication'@'127.0.0.1';
SQL
  local install=(--skip-test-db --auth-root-authentication-method=normal --extra-file="$dir/users.sql")
  if [ "$(id -u)" = 0 ]; then install+=(--user=root); fi
  if ! mariadb-install-db --defaults-file="$dir/primary.cnf" "${install[@]}" > "$dir/install.log" 2>&1; then
    cat "$dir/install.log" >&2
    exit 1
  fi
  cp -a "$dir/primary/data" "$dir/replica/data"
  start_server primary &
  local primary_starting=$!
  start_server replica
  wait "$primary_starting"
  sql replica "CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=$primary_port, MASTER_USER='replication',
    MASTER_PASSWORD='replication-password-1', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1; START SLAVE"
  {
    echo "DATABASE_URL=mysql://tracker:$tracker_password@127.0.0.1:$primary_port/tracker"
    echo "DATABASE_REPLICA_URLS=mysql://reader:$reader_password@127.0.0.1:$replica_port/tracker"
  } > "$dir/urls.env"
  sync_replica
  cat "$dir/urls.env"
}

sync_replica() {
  local position
  position="$(sql primary 'SELECT @@gtid_binlog_pos')"
  [ "$(sql replica "SELECT MASTER_GTID_WAIT('$position', 30)")" = 0 ] || { echo "the replica did not reach $position in 30 s" >&2; exit 1; }
}

case "$command" in
  start) start ;;
  stop)
    # Their data goes with them: nothing to shut down cleanly for.
    signal_server KILL replica
    signal_server KILL primary
    rm -rf "$dir"
    ;;
  delay) sql replica "STOP SLAVE; CHANGE MASTER TO MASTER_DELAY=${3:?seconds}; START SLAVE" ;;
  sql-thread) sql replica "${3:?stop or start} SLAVE SQL_THREAD" ;;
  kill-replica) signal_server KILL replica ;;
  start-replica) running replica || start_server replica ;;
  stop-primary) signal_server TERM primary ;;
  start-primary) running primary || start_server primary ;;
  sync) sync_replica ;;
  replica-reads) sql replica "SELECT IFNULL(SUM(SELECT_COMMANDS), 0) FROM information_schema.USER_STATISTICS WHERE USER = 'reader'" ;;
  sql) sql "${3:?primary or replica}" "${4:?a statement}" ;;
  *) echo "unknown command $command" >&2; exit 2 ;;
esac
