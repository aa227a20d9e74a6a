# Stop the TCMU server (exit status 0 expected).
. /vm/guest/lib.sh
. /vm/groups/tcmu/serve.inc
stop_serve && pass serve_stopped || fail serve_stopped "exit $?"
