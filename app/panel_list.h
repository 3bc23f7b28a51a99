// The app's panels, one row each, in drawing order (later windows start on
// top). Adding a panel is its file (app/x_panel.cpp, defining
// AppView::draw_x_panel) and one row here: app_view.h declares the members
// from the rows, panel_table.cpp builds the table of panels from them.
//
// No include guard: whoever includes this defines both macros, and the file
// undefines them at its end.
//
//   WARPVIZ_PANEL(id, draw, english, chinese, slot, shown, width, height, has_content...)
//   WARPVIZ_FLOATING_PANEL(id, draw, english, chinese, place, shown, has_content...)
//
//   id           "lanes": the window's ###id (its identity across languages), its key in
//                settings.json, what --panel and the layout report call it
//   draw         the AppView member drawing the window's contents (AppView::draw opens the window)
//   english, chinese  the window's title and View menu item in each language
//   slot         its place in the first-use layout: a FirstUseSlot (Top, LowerThird, ...)
//   shown        whether it is open by default
//   width, height  its size in UI units (times dpi_scale) where no layout places it
//   has_content  an expression on `app` (the const AppView&): whether the shown trace has
//                anything for the panel; one without is not drawn and is greyed in View.
//                `true` for always. Last, so that it may hold commas.
//   place        a floating panel's AppView member setting its own first place and size
//                when it opens (it has no slot in the layout)

// Left column: lanes, the timeline under them, then the lower row.
WARPVIZ_PANEL("lanes", draw_lane_panel, "Lanes", "Lane 视图", Top, true, 1100, 420, true)
WARPVIZ_PANEL("timeline", draw_timeline_panel, "Timeline", "时间轴", UnderTop, true, 1100, 88, true)
WARPVIZ_PANEL("history", draw_history_panel, "Register history", "寄存器历史", LowerFirst, true, 640, 440, true)
WARPVIZ_PANEL("votes", draw_vote_panel, "Votes", "投票", LowerSecond, true, 720, 360, !app.trace_facts.no_votes)
WARPVIZ_PANEL("block", draw_block_panel, "Block", "线程块", LowerThird, true, 760, 420, !app.trace_facts.no_block)
WARPVIZ_PANEL("bank", draw_bank_panel, "Shared-memory banks", "共享内存 bank", LowerWide, true, 860, 560,
              app.trace_facts.has_shared)
// A trace with divergent branches has no block reduction: the block's place is free.
WARPVIZ_PANEL("paths", draw_path_panel, "Paths", "分支路径", LowerThird, true, 520, 380,
              !app.trace_facts.divergent_regions.empty())
// The scenario and source panels come last of the laid-out ones, on top, as
// they are where a student starts.
WARPVIZ_PANEL("source", draw_source_panel, "Source", "源码", RightBottom, true, 520, 480, true)
WARPVIZ_PANEL("scenario", draw_scenario_panel, "Scenario", "场景", RightTop, true, 500, 420, true)
// Floats over the others; off by default: the layout has no room for it.
WARPVIZ_FLOATING_PANEL("cost", draw_cost_panel, "Cost", "开销", place_cost_panel, false, true)

#undef WARPVIZ_PANEL
#undef WARPVIZ_FLOATING_PANEL
