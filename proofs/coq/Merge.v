(** * State merging: an m-to-1 transition over sets of symbolic states.

    A merging transition replaces several symbolic states that have the same continuation
    (the same remaining program) by one state whose path condition is the disjunction of
    theirs and whose store maps each variable to an if-then-else over the path conditions:
    merging [⟨φ1, S1, p⟩] and [⟨φ2, S2, p⟩] gives [⟨φ1 ∨ φ2, x ↦ ite(φ1, S1(x), S2(x)), p⟩].
    The correctness notions are those of the transitions from sets of states to sets of
    states (an SE configuration [Cnf], a transition [(I, O)] replacing [I ⊆ Cnf] by [O]):
    a transition is exhaustive when every concrete state represented by an input is
    represented by an output, precise when every concrete state represented by an output
    is represented by an input, both for the same valuation of the symbols.
    Go: package [certsym/merge] ([merge.Pair], [merge.States]) and the term constructor
    [sym.Ite].  Proofs in [Mergeproof.v].

    The if-then-else terms are not a new constructor of [aexpr]: [aexpr] does not contain
    formulas, so an [ite] constructor there would make [aexpr] and [bexpr] mutually
    inductive and change every definition and proof over terms (evaluation, [D], [F_k],
    substitution, the extraction).  A merged state's store is a store of guarded terms
    instead: a tree of [Ite] nodes over formulas whose leaves are the terms of the
    existing language.  Under a valuation [V] a guarded term picks one leaf ([pick]); the
    state it gives ([resolve]) is an ordinary symbolic state, and a merged state
    concretizes under [V] exactly as that state does under the existing relation
    [Symbolic.concretizes].  An ordinary state is a merged state whose guarded terms are
    all leaves ([lift]).

    After the merge: the step of merged states ([mexpand], substitution through guarded
    terms) and the merged breadth-first search, depth by depth ([mlevel]). *)

From Coq Require Import ZArith String List Bool Sorting.Permutation.
From Certsym Require Import Syntax Concrete Symbolic Expand.
Import ListNotations.

(** ** Guarded terms *)

(** [Ite c g1 g2]: [g1] where [c] holds, else [g2]. *)
Inductive guarded (A : Type) : Type :=
  | Leaf (a : A)
  | Ite (c : bexpr) (g1 g2 : guarded A).
Arguments Leaf {A} a.
Arguments Ite {A} c g1 g2.

(** The leaf a guarded term stands for under the valuation [V] (conditions read with the
    total evaluation, as path conditions are). *)
Fixpoint pick {A : Type} (V : store) (g : guarded A) : A :=
  match g with
  | Leaf a => a
  | Ite c g1 g2 => if bevalT V c then pick V g1 else pick V g2
  end.

Definition guarded_eq_dec {A : Type} (dec : forall x y : A, {x = y} + {x <> y})
  : forall g1 g2 : guarded A, {g1 = g2} + {g1 <> g2}.
Proof. decide equality; apply bexpr_eq_dec. Defined.

(** [ite(c, g1, g2)] with sharing: the two sides themselves when they are equal. *)
Definition ite {A : Type} (dec : forall x y : A, {x = y} + {x <> y})
    (c : bexpr) (g1 g2 : guarded A) : guarded A :=
  if guarded_eq_dec dec g1 g2 then g1 else Ite c g1 g2.

(** ** Merged states *)

(** Stores of guarded terms: scalar variables and arrays. *)
Record mstore : Type := MStore { msv : var -> guarded aexpr; msa : var -> guarded arr }.

(** A merged state [⟨φ, G, p⟩]. *)
Definition mstate : Type := (bexpr * mstore * stmt)%type.

Definition mpc (m : mstate) : bexpr := let '(phi, _, _) := m in phi.
Definition mst (m : mstate) : mstore := let '(_, G, _) := m in G.
Definition mprog (m : mstate) : stmt := let '(_, _, p) := m in p.

(** The symbolic store a store of guarded terms stands for under [V]. *)
Definition mresolve (V : store) (G : mstore) : sstore :=
  SStore (fun x => pick V (msv G x)) (fun a => pick V (msa G a)).

(** The symbolic state a merged state stands for under [V]. *)
Definition resolve (V : store) (m : mstate) : sym_state :=
  let '(phi, G, p) := m in (phi, mresolve V G, p).

(** [V ∘ G]: the concrete store a store of guarded terms denotes under [V]. *)
Definition mcompose (V : store) (G : mstore) : store := compose V (mresolve V G).

(** Concretization of a merged state (Definition 2.3 through [resolve]): [⟨φ, G, p⟩]
    concretizes to [(V ∘ G, p)] when [V ⊨ φ]. *)
Definition mconcretizes (V : store) (m : mstate) (c : cstate) : Prop :=
  concretizes V (resolve V m) c.

(** An ordinary symbolic state as a merged state: every entry a leaf. *)
Definition lift (t : sym_state) : mstate :=
  let '(phi, ss, p) := t in (phi, MStore (fun x => Leaf (ssv ss x)) (fun a => Leaf (ssa ss a)), p).

(** ** The merge *)

(** The store of the merge: [x ↦ ite(c, G1(x), G2(x))], shared where the entries are equal. *)
Definition merge_store (c : bexpr) (G1 G2 : mstore) : mstore :=
  MStore (fun x => ite aexpr_eq_dec c (msv G1 x) (msv G2 x))
         (fun a => ite arr_eq_dec c (msa G1 a) (msa G2 a)).

(** The same without sharing: an [Ite] for every entry. *)
Definition merge_store_ite (c : bexpr) (G1 G2 : mstore) : mstore :=
  MStore (fun x => Ite c (msv G1 x) (msv G2 x)) (fun a => Ite c (msa G1 a) (msa G2 a)).

(** Merge of two states (Go: [merge.Pair]): defined only for equal continuations, [None]
    otherwise.  Path condition [φ1 ∨ φ2], each entry [ite(φ1, G1(x), G2(x))]. *)
Definition merge_pair (m1 m2 : mstate) : option mstate :=
  let '(phi1, G1, p1) := m1 in
  let '(phi2, G2, p2) := m2 in
  if stmt_eq_dec p1 p2 then Some (Bor phi1 phi2, merge_store phi1 G1 G2, p1) else None.

(** Merge of a list of states (Go: [merge.States]): [m1] merged with the merge of the
    rest; [None] for the empty list or when two continuations differ. *)
Fixpoint merge_states (l : list mstate) : option mstate :=
  match l with
  | [] => None
  | m :: l' =>
      match l' with
      | [] => Some m
      | _ => match merge_states l' with
             | Some m' => merge_pair m m'
             | None => None
             end
      end
  end.

(** The merge of ordinary symbolic states. *)
Definition merge_sym (ts : list sym_state) : option mstate := merge_states (map lift ts).

(** ** When a merge loses nothing *)

(** Two states are compatible when, wherever both path conditions hold, they denote the
    same concrete store.  A merged state denotes one store per valuation, so merging two
    states that both represent a valuation with different stores must drop one of them:
    exhaustiveness needs compatibility, precision does not. *)
Definition compatible (m1 m2 : mstate) : Prop :=
  forall V, sat V (mpc m1) -> sat V (mpc m2) -> store_eq (mcompose V (mst m1)) (mcompose V (mst m2)).

(** Disjoint path conditions (the case of distinct states of one depth of the symbolic
    execution tree): no valuation satisfies both. *)
Definition disjoint (phi1 phi2 : bexpr) : Prop := forall V, sat V phi1 -> sat V phi2 -> False.

(** ** Transitions over sets of states *)

(** A configuration is a list of merged states (a set up to order and repetition); its
    concretization is the union of its states'. *)
Definition conf_concr (Cnf : list mstate) (V : store) (c : cstate) : Prop :=
  exists m, In m Cnf /\ mconcretizes V m c.

(** The transition [(I, O)] is exhaustive: every concrete state represented by an input is
    represented by an output (for the same valuation). *)
Definition exhaustive (I O : list mstate) : Prop :=
  forall i V c, In i I -> mconcretizes V i c -> exists o, In o O /\ mconcretizes V o c.

(** The transition [(I, O)] is precise: every concrete state represented by an output is
    represented by an input (for the same valuation). *)
Definition precise (I O : list mstate) : Prop :=
  forall o V c, In o O -> mconcretizes V o c -> exists i, In i I /\ mconcretizes V i c.

(** [Cnf'] is the successor configuration of [(I, O)] in [Cnf]: [Cnf \ I ∪ O], [I] taken
    from [Cnf] with its multiplicities. *)
Definition replaces (Cnf I O Cnf' : list mstate) : Prop :=
  exists R, Permutation Cnf (I ++ R) /\ Cnf' = O ++ R.

(** The merging transition: the states [I] of [Cnf] replaced by their merge [m]. *)
Definition merge_step (Cnf I : list mstate) (m : mstate) (Cnf' : list mstate) : Prop :=
  merge_states I = Some m /\ replaces Cnf I [m] Cnf'.

(** ** The merge policy *)

(** The states at depth [d] of the symbolic execution tree of the initial queue [l]: the
    states breadth-first search expands in its [d]-th round. *)
Fixpoint level (l : list sym_state) (d : nat) : list sym_state :=
  match d with
  | O => l
  | S d' => flat_map expand_state (level l d')
  end.

(** The merge policy: merge only a non-empty group of states of one BFS depth ([lvl],
    taken with multiplicities) with the same continuation. *)
Definition merge_policy (lvl I : list mstate) : Prop :=
  I <> [] /\ (exists R, Permutation lvl (I ++ R)) /\
  (forall m1 m2, In m1 I -> In m2 I -> mprog m1 = mprog m2).

(** ** Expansion of merged states *)

(** Guarded terms are a monad: [gmap] applies a function to every leaf, [gbind] replaces
    every leaf by a guarded term. *)
Fixpoint gmap {A B : Type} (f : A -> B) (g : guarded A) : guarded B :=
  match g with
  | Leaf a => Leaf (f a)
  | Ite c g1 g2 => Ite c (gmap f g1) (gmap f g2)
  end.

Fixpoint gbind {A B : Type} (g : guarded A) (f : A -> guarded B) : guarded B :=
  match g with
  | Leaf a => f a
  | Ite c g1 g2 => Ite c (gbind g1 f) (gbind g2 f)
  end.

Definition gmap2 {A B C : Type} (f : A -> B -> C) (g1 : guarded A) (g2 : guarded B) : guarded C :=
  gbind g1 (fun a => gmap (f a) g2).

(** Substitution of a store of guarded terms: the [Ite]s of the entries are lifted above
    the expression, so that each leaf is the substitution of one store of leaves.  The
    guards are path conditions, closed formulas over the symbols, so lifting them out of a
    quantifier captures nothing. *)
Fixpoint gasubst (G : mstore) (a : aexpr) : guarded aexpr :=
  match a with
  | Cst n => Leaf (Cst n)
  | Var x => gmap aclose (msv G x)
  | BVar k => Leaf (BVar k)
  | Neg a1 => gmap Neg (gasubst G a1)
  | Add a1 a2 => gmap2 Add (gasubst G a1) (gasubst G a2)
  | Sub a1 a2 => gmap2 Sub (gasubst G a1) (gasubst G a2)
  | Mul a1 a2 => gmap2 Mul (gasubst G a1) (gasubst G a2)
  | Div a1 a2 => gmap2 Div (gasubst G a1) (gasubst G a2)
  | Mod a1 a2 => gmap2 Mod (gasubst G a1) (gasubst G a2)
  | Sel t lo hi i => gmap2 (fun t' i' => Sel t' lo hi i') (garsubst G t) (gasubst G i)
  end
with garsubst (G : mstore) (t : arr) : guarded arr :=
  match t with
  | AVar a => gmap arclose (msa G a)
  | AStore t1 i v => gbind (garsubst G t1) (fun t1' => gmap2 (AStore t1') (gasubst G i) (gasubst G v))
  end.

Fixpoint gbsubst (G : mstore) (b : bexpr) : guarded bexpr :=
  match b with
  | Btrue => Leaf Btrue
  | Bfalse => Leaf Bfalse
  | Beq a1 a2 => gmap2 Beq (gasubst G a1) (gasubst G a2)
  | Bne a1 a2 => gmap2 Bne (gasubst G a1) (gasubst G a2)
  | Blt a1 a2 => gmap2 Blt (gasubst G a1) (gasubst G a2)
  | Ble a1 a2 => gmap2 Ble (gasubst G a1) (gasubst G a2)
  | Bgt a1 a2 => gmap2 Bgt (gasubst G a1) (gasubst G a2)
  | Bge a1 a2 => gmap2 Bge (gasubst G a1) (gasubst G a2)
  | Bnot b1 => gmap Bnot (gbsubst G b1)
  | Band b1 b2 => gmap2 Band (gbsubst G b1) (gbsubst G b2)
  | Bor b1 b2 => gmap2 Bor (gbsubst G b1) (gbsubst G b2)
  | Bquant ex k a1 a2 b1 =>
      gbind (gasubst G a1) (fun a1' => gmap2 (Bquant ex k a1') (gasubst G a2) (gbsubst G b1))
  | Bfirst k a1 a2 d f =>
      gbind (gasubst G a1) (fun a1' => gbind (gasubst G a2) (fun a2' =>
        gmap2 (Bfirst k a1' a2') (gbsubst G d) (gbsubst G f)))
  end.

(** A guarded formula as a formula: [ite(c, f1, f2)] is [(c ∧ f1) ∨ (¬c ∧ f2)]. *)
Fixpoint gform (g : guarded bexpr) : bexpr :=
  match g with
  | Leaf b => b
  | Ite c g1 g2 => Bor (Band c (gform g1)) (Band (Bnot c) (gform g2))
  end.

Definition msupdate (G : mstore) (x : var) (e : guarded aexpr) : mstore :=
  MStore (fun y => if String.eqb x y then e else msv G y) (msa G).

Definition msaupdate (G : mstore) (a : var) (t : guarded arr) : mstore :=
  MStore (msv G) (fun b => if String.eqb a b then t else msa G b).

Definition mthen_do (q : stmt) (m : mstate) : mstate :=
  let '(phi, G, p) := m in (phi, G, Seq p q).

Definition merr_succs (can : fkind -> bool) (F : fkind -> bexpr) (phi : bexpr) (G : mstore)
  : list mstate :=
  (if can KDiv then [(Band phi (F KDiv), G, Fail KDiv)] else []) ++
  (if can KIdx then [(Band phi (F KIdx), G, Fail KIdx)] else []).

(** The successors of a merged state: [Expand.expand] with the substitution of guarded
    terms, the guarded formulas read as formulas. *)
Fixpoint mexpand (phi : bexpr) (G : mstore) (p : stmt) : list mstate :=
  match p with
  | Skip | Fail _ => []
  | Assign x a =>
      let e := gasubst G a in
      (Band phi (gform (gmap aD e)), msupdate G x e, Skip)
        :: merr_succs (fun k => acan k a) (fun k => gform (gmap (aF k) e)) phi G
  | AAssign a lo hi i e =>
      let i' := gasubst G i in
      let e' := gasubst G e in
      (Band phi (gform (gmap2 (wD lo hi) i' e')),
       msaupdate G a (gbind (msa G a) (fun t => gmap2 (AStore t) i' e')), Skip)
        :: merr_succs (fun k => wcan k i e) (fun k => gform (gmap2 (wF k lo hi) i' e')) phi G
  | If b p1 p2 =>
      let c := gbsubst G b in
      (Band phi (Band (gform (gmap bD c)) (gform c)), G, p1)
        :: (Band phi (Band (gform (gmap bD c)) (Bnot (gform c))), G, p2)
        :: merr_succs (fun k => bcan k b) (fun k => gform (gmap (bF k) c)) phi G
  | While b p1 => [(phi, G, If b (Seq p1 (While b p1)) Skip)]
  | Assume b =>
      let c := gbsubst G b in
      (Band phi (Band (gform (gmap bD c)) (gform c)), G, Skip)
        :: merr_succs (fun k => bcan k b) (fun k => gform (gmap (bF k) c)) phi G
  | Seq p1 q =>
      match p1 with
      | Skip => [(phi, G, q)]
      | _ => map (mthen_do q) (mexpand phi G p1)
      end
  end.

Definition mexpand_state (m : mstate) : list mstate :=
  let '(phi, G, p) := m in mexpand phi G p.

(** A merged state stands, under [V], for an ordinary state: the same path condition under
    [V], the same entries once the guards are read under [V], the same program. *)
Definition vequiv (V : store) (m : mstate) (t : sym_state) : Prop :=
  let '(phi, G, p) := m in
  let '(psi, ss, q) := t in
  bevalT V phi = bevalT V psi /\ (forall x, pick V (msv G x) = ssv ss x) /\
  (forall a, pick V (msa G a) = ssa ss a) /\ p = q.

(** ** The merged breadth-first search, depth by depth *)

Definition mdisjoint (m1 m2 : mstate) : Prop := disjoint (mpc m1) (mpc m2).

(** Any merging transition: a group of states with one continuation replaced by its merge. *)
Definition merge_any (Cnf Cnf' : list mstate) : Prop := exists I m, merge_step Cnf I m Cnf'.

(** One round of the merged search: every state of the depth expanded, then any number of
    merges among the successors (all of the next depth: the merge policy). *)
Definition mround (ML ML' : list mstate) : Prop := star merge_any (flat_map mexpand_state ML) ML'.

(** [mlevel p d ML]: [ML] is a configuration the merged search of [p] can have at depth [d]
    (which groups it merges is left open). *)
Fixpoint mlevel (p : stmt) (d : nat) (ML : list mstate) : Prop :=
  match d with
  | O => ML = [lift (sym_init p)]
  | S d' => exists ML0, mlevel p d' ML0 /\ mround ML0 ML
  end.

(** Valuation by valuation, the merged configuration [ML] and the ordinary one [L] stand
    for each other: each state of one whose path condition holds under [V] stands for a state
    of the other. *)
Definition vsim (V : store) (ML : list mstate) (L : list sym_state) : Prop :=
  (forall m, In m ML -> sat V (mpc m) -> exists t, In t L /\ vequiv V m t) /\
  (forall t, In t L -> sat V (pc t) -> exists m, In m ML /\ vequiv V m t).
