// A whole program that needs nvcc's options: -I for answer.h, -D EXTRA=2,
// -U DROPPED; prints what it got.
#include <cstdio>
#include "answer.h"

#define DROPPED 1

int main() {
#ifdef DROPPED
  std::printf("DROPPED still defined\n");
#endif
  std::printf("answer %d\n", ANSWER_FROM_HEADER + EXTRA);
  return 0;
}
