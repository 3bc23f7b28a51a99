// Small widgets every panel uses.
#pragma once

namespace warpviz::app {

// A dimmed message centred in the panel (wrapped to its width): what a panel
// shows when it has nothing to draw.
void centred_message(const char* text);

}  // namespace warpviz::app
