# SPDX-License-Identifier: BSD-2-Clause
# Sourced by the bench scripts that run OpenSM on large ibsim fabrics
# (from the build directory): the source tree in $top, the build's tool
# and plugin, ibsim's tables sized for 35k hosts, long start timeouts,
# then tests/ibsim/lib.sh.  Set OSM_DEBUG and the like before sourcing.
top=$(cd "$(dirname "$0")/.." && pwd)
OSMRE_TESTS_DIR=$top/tests
OSMRE_BIN=${OSMRE_BIN:-$PWD/tools/osmre}
OSMRE_PLUGIN_DIR=${OSMRE_PLUGIN_DIR:-$PWD/plugins/.libs}
IBSIM_ARGS="-N 60000 -S 10000 -P 500000 -L 49152"
OSM_UP_TIMEOUT=${OSM_UP_TIMEOUT:-3600}
SIM_START_TIMEOUT=600
. "$top/tests/ibsim/lib.sh"
