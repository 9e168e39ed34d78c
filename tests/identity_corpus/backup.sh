#!/usr/bin/env bash
# backup.sh - rotate and upload backups, to exercise the Bash grammar.
set -Eeuo pipefail

export BACKUP_ROOT="${BACKUP_ROOT:-/var/backups}"
declare -A RETENTION=([daily]=7 [weekly]=4)
declare -r SCRIPT_NAME="${0##*/}"
TARGETS=(db files)

usage() {
	cat <<-EOF
	Usage: ${SCRIPT_NAME} [-n] target...
	  -n  dry run
	EOF
}

function timestamp() {
	date -u +%Y%m%dT%H%M%SZ
}

function rotate {
	local kind="$1" keep
	keep="${RETENTION[$kind]}"
	find "$BACKUP_ROOT/$kind" -type f -printf '%T@ %p\n' \
		| sort -rn \
		| tail -n +"$((keep + 1))" \
		| cut -d' ' -f2- \
		| xargs -r rm --
}

dump_db() (
	cd "$BACKUP_ROOT"
	pg_dump --format=custom "$DATABASE_URL" > "db/$(timestamp).dump"
)

upload() {
	local file="$1"
	case "$file" in
		*.dump) aws s3 cp "$file" "s3://backups/db/" ;;
		*) aws s3 cp "$file" "s3://backups/files/" ;;
	esac
}

report() {
	local body
	body=$(cat <<'TEXT'
backup finished
  no $expansion here
TEXT
)
	printf '%s\n' "$body"
}

main() {
	local dry_run=0 opt
	while getopts ":n" opt; do
		case "$opt" in
			n) dry_run=1 ;;
			*) usage; exit 2 ;;
		esac
	done
	for target in "${TARGETS[@]}"; do
		(( dry_run )) && { echo "would back up $target"; continue; }
		rotate daily
	done
	report
}

[[ "${BASH_SOURCE[0]}" == "$0" ]] && main "$@"
