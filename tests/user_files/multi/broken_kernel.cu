// Compiles nowhere: line 4 uses a name that is not declared.
__global__ void broken(int* values) {
  const int i = threadIdx.x;
  values[i] = not_declared_anywhere;
}

void launch_broken(int* values) { broken<<<1, 32>>>(values); }
