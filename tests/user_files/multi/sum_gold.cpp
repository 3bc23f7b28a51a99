// The CPU reference: the sum of i*i + 1 for i < n when `values` is null,
// else the sum of the values given.
int gold_total(const int* values, int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) total += values ? values[i] : i * i + 1;
  return total;
}
