(** * Symbolic semantics of IMP (spec/SEMANTICS.md, "Symbolic states and expansion";
    Sections 2.2-2.3 of Correnson and Steinhöfel, ESEC/FSE 2023, extended with
    [*], [/], [%], [assume] and division errors).  Proofs in [Symbolicproof.v]. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete.
Import ListNotations.

(** A symbolic state [⟨φ, S, p⟩]. *)
Definition sym_state : Type := (bexpr * sstore * stmt)%type.

Definition pc (t : sym_state) : bexpr := let '(phi, _, _) := t in phi.
Definition prog (t : sym_state) : stmt := let '(_, _, p) := t in p.

(** The symbolic small-step relation: one constructor per rule of the table
    [E-...] of SEMANTICS.md; a rule with two or three successors is split into one
    constructor per successor. *)
Inductive sym_step : sym_state -> sym_state -> Prop :=
  | E_Assign : forall phi S x a,
      sym_step (phi, S, Assign x a)
               (Band phi (aD (asubst S a)), supdate S x (asubst S a), Skip)
  | E_AssignErr : forall phi S x a k,
      acan k a = true ->
      sym_step (phi, S, Assign x a) (Band phi (aF k (asubst S a)), S, Fail k)
  | E_ArrAssign : forall phi S a lo hi i e,
      sym_step (phi, S, AAssign a lo hi i e)
               (Band phi (wD lo hi (asubst S i) (asubst S e)),
                saupdate S a (AStore (ssa S a) (asubst S i) (asubst S e)), Skip)
  | E_ArrAssignErr : forall phi S a lo hi i e k,
      wcan k i e = true ->
      sym_step (phi, S, AAssign a lo hi i e)
               (Band phi (wF k lo hi (asubst S i) (asubst S e)), S, Fail k)
  | E_IfTrue : forall phi S b p q,
      sym_step (phi, S, If b p q)
               (Band phi (Band (bD (bsubst S b)) (bsubst S b)), S, p)
  | E_IfFalse : forall phi S b p q,
      sym_step (phi, S, If b p q)
               (Band phi (Band (bD (bsubst S b)) (Bnot (bsubst S b))), S, q)
  | E_IfErr : forall phi S b p q k,
      bcan k b = true ->
      sym_step (phi, S, If b p q) (Band phi (bF k (bsubst S b)), S, Fail k)
  | E_While : forall phi S b p,
      sym_step (phi, S, While b p) (phi, S, If b (Seq p (While b p)) Skip)
  | E_Assume : forall phi S b,
      sym_step (phi, S, Assume b)
               (Band phi (Band (bD (bsubst S b)) (bsubst S b)), S, Skip)
  | E_AssumeErr : forall phi S b k,
      bcan k b = true ->
      sym_step (phi, S, Assume b) (Band phi (bF k (bsubst S b)), S, Fail k)
  | E_SeqSkip : forall phi S q,
      sym_step (phi, S, Seq Skip q) (phi, S, q)
  | E_Seq : forall phi S p q phi' S' p',
      sym_step (phi, S, p) (phi', S', p') ->
      sym_step (phi, S, Seq p q) (phi', S', Seq p' q).

Definition sym_steps := star sym_step.

(** The initial symbolic state of a program: [⟨true, id, p⟩]. *)
Definition sym_init (p : stmt) : sym_state := (Btrue, sid, p).

(** [V ∘ S]: the concrete store denoted by [S] under the valuation [V]. *)
Definition compose (V : store) (S : sstore) : store :=
  Store (fun x => aevalT V (ssv S x)) (fun a j => agetT V (ssa S a) j).

(** Definition 2.3 (concretization): [⟨φ, S, p⟩] concretizes to [(V ∘ S, p)] when
    [V ⊨ φ].  Stores are compared pointwise. *)
Definition concretizes (V : store) (t : sym_state) (c : cstate) : Prop :=
  let '(phi, ss, p) := t in
  sat V phi /\ store_eq (fst c) (compose V ss) /\ snd c = p.

Definition Concrete (t : sym_state) (c : cstate) : Prop := exists V, concretizes V t c.

(** ** Bugs *)

(** A concrete bug of [p]: an error state reachable from some input store
    (the reached store is taken up to pointwise equality). *)
Definition IsBug (p : stmt) (c : cstate) : Prop :=
  exists V s, steps (V, p) (s, snd c) /\ store_eq s (fst c) /\ is_error (snd c) = true.

Definition has_bug (p : stmt) : Prop := exists c, IsBug p c.

(** A potential bug: a symbolic error state reachable from [⟨true, id, p⟩]. *)
Definition potential_bug (p : stmt) (t : sym_state) : Prop :=
  sym_steps (sym_init p) t /\ is_error (prog t) = true.

(** A valid bug: every concretization of the symbolic state is a concrete bug. *)
Definition ValidBug (p : stmt) (t : sym_state) : Prop :=
  forall c, Concrete t c -> IsBug p c.

(** Symbolic stores whose entries are all defined under [V] (an invariant of
    reachable states under their path condition; needed because of division). *)
Definition wf (V : store) (S : sstore) : Prop :=
  (forall x, aeval V (ssv S x) = Ok (aevalT V (ssv S x))) /\
  (forall a, arerr V (ssa S a) = None).

(** ** Reachability and bugs seen through the symbolic semantics
    (the shape of the statements of Section 2 of the paper) *)

(** Concrete reachability from some input store (stores up to pointwise equality). *)
Definition CReach (p : stmt) (c : cstate) : Prop :=
  exists V s, steps (V, p) (s, snd c) /\ store_eq s (fst c).

(** Symbolic reachability: [c] concretizes, under some [V], a symbolic state
    reachable from [⟨true, id, p⟩]. *)
Definition SReach (p : stmt) (c : cstate) : Prop :=
  exists V t, sym_steps (sym_init p) t /\ concretizes V t c.

Definition SIsBug (p : stmt) (c : cstate) : Prop := SReach p c /\ is_error (snd c) = true.
Definition SHasBug (p : stmt) : Prop := exists c, SIsBug p c.

(** Bad inputs: input stores whose run reaches an error. *)
Definition BadInput (p : stmt) (V : store) : Prop :=
  exists c, steps (V, p) c /\ is_error (snd c) = true.

Definition SBadInput (p : stmt) (V : store) : Prop :=
  exists c t, sym_steps (sym_init p) t /\ concretizes V t c /\ is_error (snd c) = true.
