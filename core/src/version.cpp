#include "warpviz/version.h"

namespace warpviz {

std::string tool_version() { return std::string("warpviz ") + WARPVIZ_VERSION; }

}  // namespace warpviz
