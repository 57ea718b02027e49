// The hulk command-line program: subcommands are registered in commands.cpp.
#include <iostream>

int main() {
  std::cout << "hulk (under construction)\n";
  return 0;
}
