// Exits at once, leaving a child that keeps stdout open and sleeps: the run
// ends, and the child with it.
#include <stdio.h>
#include <unistd.h>

int main() {
    fflush(stdout);
    if (fork() == 0) {
        printf("child pid %d\n", (int)getpid());
        fflush(stdout);
        sleep(600);
        return 0;
    }
    usleep(200000);  // the child's line first
    printf("parent done\n");
    return 0;
}
