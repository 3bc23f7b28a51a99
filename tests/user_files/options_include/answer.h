// Found only through -I options_include (compiler_options test).
#pragma once
#define ANSWER_FROM_HEADER 40
