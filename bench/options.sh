# Sourced by bench/run.sh and bench/programs/run.sh with the script's
# arguments in `args`: sets `threads` (--threads N|all; all -> 0, every
# core) and `options`, the --layout-lower-to-llvm options (PIPELINE_OPTIONS,
# plus num-threads=$threads unless it sets num-threads itself).
threads=1
for ((i = 0; i < ${#args[@]}; i++)); do
  if [ "${args[$i]}" = --threads ] && [ $((i + 1)) -lt ${#args[@]} ]; then
    threads=${args[$((i + 1))]}
  fi
done
[ "$threads" = all ] && threads=0
options=${PIPELINE_OPTIONS:-}
if [[ " $options " != *" num-threads="* ]]; then
  options="${options:+$options }num-threads=$threads"
fi
