// Every lane loops round a ballot on a flag nothing sets: the threads keep
// reaching a warp operation (the emulator is busy), none ever finishes. An
// H200 would spin for ever too.
__global__ void spin_round_ballot(int* flag) {
    while (__ballot_sync(0xffffffffu, ((volatile int*)flag)[0] == 0)) { }
}
