// Forks a child that keeps stdout open and sleeps, then sleeps itself: the
// time limit and Cancel must end both. The child writes its pid first.
#include <stdio.h>
#include <unistd.h>

int main() {
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        printf("child pid %d\n", (int)getpid());
        fflush(stdout);
        sleep(600);
        return 0;
    }
    printf("parent pid %d\n", (int)getpid());
    fflush(stdout);
    sleep(600);
    return 0;
}
