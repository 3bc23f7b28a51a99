// A host file with its own umin, as a program's .cpp may have: CUDA's device
// umin never reaches a .cpp file under nvcc, so this is no redefinition.
typedef unsigned int uint;
static uint umin(uint a, uint b) { return a < b ? a : b; }
uint host_smaller(uint a, uint b) { return umin(a, b) + 100; }
