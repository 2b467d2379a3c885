// Never compiles: the compiler reads an endless file.
#include </dev/random>
