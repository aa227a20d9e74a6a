# Stop the TCMU server, as the engine group does.
. /vm/groups/engine/99-stop.sh
