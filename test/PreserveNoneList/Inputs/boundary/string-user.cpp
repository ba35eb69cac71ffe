// Calls an out-of-line member of std::string, which libstdc++ defines.
#include <string>
long cmp(const std::string &s) { return s.compare("x") + s.size(); }
