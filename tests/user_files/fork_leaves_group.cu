// Forks a child that leaves the program's process group (setsid) holding
// stdout open for a few seconds, then sleeps: stopping the run kills the
// program at once, but the pipe stays open until the child ends, so whoever
// waits for the run's thread waits that long. The app must not.
#include <stdio.h>
#include <unistd.h>

int main() {
    fflush(stdout);
    if (fork() == 0) {
        setsid();
        printf("child pid %d\n", (int)getpid());
        fflush(stdout);
        sleep(3);
        return 0;
    }
    printf("parent pid %d\n", (int)getpid());
    fflush(stdout);
    sleep(600);
    return 0;
}
