// The host file of a program whose other file does not compile.
void launch_broken(int* values);
int main() {
  launch_broken(nullptr);
  return 0;
}
