// warpviz: cooperative groups come from the recording layer (warpviz/cooperative_groups_rec.h,
// already included by the prelude), so that every tile operation is recorded.
#pragma once
