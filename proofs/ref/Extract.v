(** Extraction of the executable reference.  Run from inside the build folder
    (Coq 8.16 writes extracted files to the current directory). *)

From Coq Require Import Extraction ExtrOcamlBasic ExtrOcamlZBigInt ExtrOcamlNativeString.
From Certsym Require Import Syntax Concrete Symbolic Expand Run Bugfinder Reference Merge MergeSearch.

(** Coq module names that would shadow OCaml's standard library or zarith. *)
Extraction Blacklist List String Nat Bool Char Option Seq Int Z Q Big_int_Z Stdlib
  Array Bytes Buffer Map Hashtbl Format Printf Uchar Fun Result Either.

Extraction "certsym_extracted.ml"
  ref_aeval ref_beval ref_is_error ref_error_kind ref_step ref_expand sstore_lists
  run bfs_step expand_state init find_bugs classify to_list
  ref_mrun ref_mstep ref_mstatus minit mstore_lists.
