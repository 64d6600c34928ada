# Lowering: profiles, Lower/Lift, the need channel, the strict checker, the generator.
structure_add_tests(NAME lowering_tests LABEL pipeline COST 100
  SOURCES pipeline/lowering/lower_corpus_test.cc pipeline/lowering/roundtrip_test.cc pipeline/lowering/lower_rules_test.cc
    pipeline/lowering/lowering_units_test.cc pipeline/generate/schema_ref_test.cc
    pipeline/lowering/split_corpus_test.cc pipeline/lowering/split_plan_test.cc
    pipeline/lowering/split_merge_test.cc pipeline/lowering/split_financial_test.cc
  LIBS structure_lowering structure_generate structure_validator)
