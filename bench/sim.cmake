# sim_load: the 10 000-connection load tool for `structure sim` (see docs/simulator.md).
add_executable(sim_load ${CMAKE_CURRENT_LIST_DIR}/sim_load.cc)
