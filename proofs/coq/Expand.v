(** * Executable expansion of a symbolic state (Fig. 7 of the paper, extended;
    spec/SEMANTICS.md table [E-...]; Go: the method [Expand] of
    [engine.Engine], engine/expand.go).
    Successors are listed in the order of the table.  Proofs in [Expandproof.v]. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Symbolic.
Import ListNotations.

(** [⟨φ', S', p'⟩ ↦ ⟨φ', S', p' ; q⟩] *)
Definition then_do (q : stmt) (t : sym_state) : sym_state :=
  let '(phi, ss, p) := t in (phi, ss, Seq p q).

(** The error successors, one per kind the expression can fail with, division first
    (Go: the statement's [Err], then its [IdxErr]). *)
Definition err_succs (can : fkind -> bool) (F : fkind -> bexpr) (phi : bexpr) (ss : sstore)
  : list sym_state :=
  (if can KDiv then [(Band phi (F KDiv), ss, Fail KDiv)] else []) ++
  (if can KIdx then [(Band phi (F KIdx), ss, Fail KIdx)] else []).

Fixpoint expand (phi : bexpr) (ss : sstore) (p : stmt) : list sym_state :=
  match p with
  | Skip | Fail _ => []
  | Assign x a =>
      let e := asubst ss a in
      (Band phi (aD e), supdate ss x e, Skip)
        :: err_succs (fun k => acan k a) (fun k => aF k e) phi ss
  | AAssign a lo hi i e =>
      let i' := asubst ss i in
      let e' := asubst ss e in
      (Band phi (wD lo hi i' e'), saupdate ss a (AStore (ssa ss a) i' e'), Skip)
        :: err_succs (fun k => wcan k i e) (fun k => wF k lo hi i' e') phi ss
  | If b p1 p2 =>
      let c := bsubst ss b in
      (Band phi (Band (bD c) c), ss, p1)
        :: (Band phi (Band (bD c) (Bnot c)), ss, p2)
        :: err_succs (fun k => bcan k b) (fun k => bF k c) phi ss
  | While b p1 => [(phi, ss, If b (Seq p1 (While b p1)) Skip)]
  | Assume b =>
      let c := bsubst ss b in
      (Band phi (Band (bD c) c), ss, Skip)
        :: err_succs (fun k => bcan k b) (fun k => bF k c) phi ss
  | Seq p1 q =>
      match p1 with
      | Skip => [(phi, ss, q)]
      | _ => map (then_do q) (expand phi ss p1)
      end
  end.

Definition expand_state (t : sym_state) : list sym_state :=
  let '(phi, ss, p) := t in expand phi ss p.
