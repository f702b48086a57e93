# Guest scenario: names in a casefolded directory of image "cf" (mkfs -O
# casefold -C utf8).  The kernel folds and hashes them; lookups by other
# spellings must find them (proof the folding is on); the host then checks
# every stored hash with its own folding.
. /lib/ktest.sh

kt_mount cf || exit 1
d=/mnt/cf/d
mkdir "$d" && kt_run "set the casefold flag" ktool casefold "$d"

# mk PRINTF-FORMAT: create a file of that name (octal escapes)
mk() {
	name=$(printf "$1")
	: > "$d/$name" || kt_fail "cannot create $1"
}
mk 'Stra\303\237e'				# Straße: sharp s folds to ss
mk '\303\211COLE'				# precomposed E acute
mk 'E\314\201tude'				# E + combining acute
mk '\316\243\316\212\316\243\316\245\316\246\316\237\316\243'	# Greek capitals
mk '\355\225\234\352\270\200'			# Hangul syllables
mk 'a\342\200\213b'				# zero width space (ignorable)
mk 'x\314\201\314\226'				# marks out of canonical order
mk '\357\254\201le'				# fi ligature folds to "fi"
mk '\304\260stanbul'				# capital I with dot above
mk '\360\237\230\200.txt'			# emoji
mk '\360\237\253\220'				# assigned after Unicode 12.1
mk '\342\204\252elvin'				# Kelvin sign
mk '\342\204\253ngstrom'			# Angstrom sign
mk '\307\205z'					# titlecase digraph
mk '\352\255\260'				# Cherokee small letter
mk 'v\357\270\217s'				# variation selector (ignorable)
mk 't\363\240\200\201ag'			# language tag (ignorable)
mk 'r\363\240\202\200x'				# reserved default-ignorable
mk 'n\357\277\276c'				# noncharacter
mk '\377bad'					# not UTF-8: hashed as it is
mk "$(printf 'A%.0s\303\237' $(seq 1 40))"	# long, multibyte
for i in $(seq 1 200); do : > "$d/Name$i"; done	# enough for a dentry block

# Lookups by other spellings find the files only through the folding.
for other in 'STRASSE' '\303\251cole' '\303\251TUDE' \
	'\317\203\316\257\317\203\317\205\317\206\316\277\317\202' 'AB' 'X\314\226\314\201' \
	'FILE' 'i\314\207STANBUL' 'kelvin' 'a\314\212ngstrom' '\307\206Z' '\341\216\240' \
	'VS' 'TAG' 'RX'; do
	name=$(printf "$other")
	[ -e "$d/$name" ] || kt_fail "lookup of $other finds nothing (is the folding on?)"
done
ls "$d" | wc -l
kt_umount cf
exit $KT_RC
