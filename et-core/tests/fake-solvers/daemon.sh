#!/bin/sh
# Daemonizes a child the classic way (fork, setsid, fork again, the middle process
# exits: the grandchild is re-parented away from the solver), then never answers. The
# grandchild writes its pid into the directory $1.
dir=$1
setsid sh -c 'sh -c "echo \$\$ > \"$1/daemon-\$\$.tmp\" && mv \"$1/daemon-\$\$.tmp\" \"$1/daemon-\$\$.pid\"; exec sleep 100000" & exit 0' sh "$dir" </dev/null >/dev/null 2>&1 &
exec sleep 100000
