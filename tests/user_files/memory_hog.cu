// Touches ever more host memory: the memory limit stops it.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main() {
    for (int i = 0; i < 4096; ++i) {
        char* p = (char*)malloc(16 << 20);
        memset(p, 1, 16 << 20);  // resident, not only reserved
        usleep(1000);
    }
    printf("never got here\n");
    return 0;
}
