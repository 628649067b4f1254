# SPDX-License-Identifier: BSD-2-Clause
# The layers of common/, sourced by scripts/layer-check (on the includes)
# and scripts/import-check (on the calls between files).
base="util model formats routing engines"
allowed() {	# allowed PART: the parts PART may include
	case $1 in
	util) echo "util" ;;
	model) echo "util model" ;;
	formats) echo "util model formats" ;;
	routing) echo "util model formats routing" ;;
	engines) echo "$base" ;;
	engines/sar) echo "$base engines/sar engines/dmodc" ;;
	engines/*) echo "$base $1" ;; # an engine: its own folder
	run) echo "$base run" ;;
	analysis) echo "$base engines/dmodc run analysis" ;;
	slurm) echo "util model formats slurm" ;;
	*) echo "" ;;
	esac
}
part_of() {	# part_of FILE: its folder under common/
	d=${1%/*}
	echo "${d#common/}"
}
