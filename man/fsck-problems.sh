#!/bin/sh
# man/fsck-problems.sh FSCK: print the PROBLEM CODES section of
# fsck.f2fs(8) from the problem table (FSCK --list-problems), in troff.
# Regenerate the man page with:
#   sh man/fsck-problems.sh fsck/fsck.f2fs > /tmp/p && (update between the markers)
fsck=${1:-fsck.f2fs}
"$fsck" --list-problems | while IFS='	' read -r code name sev preen fix msg; do
	printf '.TP\n.B F2FS-%s\n%s (%s, %s): %s\n.br\nRepair: %s.\n' \
		"$code" "$name" "$sev" "$([ "$preen" = preen ] && echo 'safe in preen mode' || echo 'needs -y')" \
		"$(printf '%s' "$msg" | sed 's/\\/\\\\/g; s/^\./\\\&./')" "$fix"
done
