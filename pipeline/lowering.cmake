# Instance generator: a small library on its own so the simulator can link it alone.
add_library(structure_generate STATIC
  generate.cc generate_scalar.cc json_type.cc regex_sample.cc schema_merge.cc schema_ref.cc)
target_link_libraries(structure_generate PUBLIC structure_base PkgConfig::RE2)

# Capability profiles, the strict acceptance checker, Lower/Lift and the need channel.
add_library(structure_lowering STATIC
  profile.cc profiles_builtin.cc strict_check.cc lower.cc lower_node.cc lower_compose.cc lower_object.cc
  lower_limits.cc lift.cc need_channel.cc)
target_link_libraries(structure_lowering PUBLIC structure_generate structure_base)
