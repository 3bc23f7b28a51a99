#include <cstdio>
#include "check.h"
int main() {
  printf("%s %s\n", __FILE__, where_check_is());
  return 0;
}
