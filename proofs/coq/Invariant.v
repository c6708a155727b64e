(** * Loop invariants: the invariant transition of the symbolic semantics and the proof mode
    built on it.  Proofs in [Invariantproof.v].

    The surface loop [while b invariant I do S od] checks [I] at each arrival at the loop
    head, before [b]; in the core it is desugared, like [assert], to
    [if I then skip else fail] before the loop and at the end of its body.  This file does
    not change the core: the invariant is given beside the loop ([annot]), and the
    transition works for a loop [While b body] with any formula [I].

    The invariant transition replaces the unrolling of a loop (rule [E-While]) by a summary.
    From a symbolic state [⟨φ, S, C[while b do body od]⟩] (the loop at the head of the
    program, [C] the rest of the sequence) its successors are:
    - the entry claim: [I] fails in [S] (false, or an error of evaluation): an error state;
    - the body: every variable and array the body may assign (its modifies set [mods],
      [amods], computed on the syntax) is given a fresh symbol ([havoc]); assuming [I] and
      [b] there, the body is executed once, followed by the check of [I] (the preservation
      claim: [chk I]); the path ends after it;
    - the error of [b] on the havocked store, assuming [I];
    - the exit: on the havocked store, assuming [I] and [not b], the program goes on after
      the loop ([plug p Skip]).
    The transition is exhaustive when its claims hold (every concrete run of the loop is
    reproduced from a successor, else a claim fails; [Invariantproof.inv_exhaustive]) and it
    is not precise: the havocked states represent stores no run reaches.

    Fresh symbols: a symbol of a symbolic store is a variable name, and the input symbol of
    every variable is its own name, so no name is fresh for a whole store; freshness is
    relative to a finite set of variables [X] (scalars) and [XA] (arrays), those of the
    program, and concrete stores are compared on them ([agr]).  The proof mode ([pstep])
    applies the transition to every annotated loop and symbolic execution to the rest; its
    soundness ([Invariantproof.prove_sound]): if no error state it reaches has a satisfiable
    path condition (every claim and every [fail] or runtime error check is valid), no run of
    the program fails. *)

From Coq Require Import ZArith Ascii String List Bool.
From Certsym Require Import Syntax Concrete Symbolic.
Import ListNotations.

(** ** Arrays mentioned by expressions and programs *)

Fixpoint aarrs (a : aexpr) : list var :=
  match a with
  | Cst _ | Var _ | BVar _ => []
  | Neg a1 => aarrs a1
  | Add a1 a2 | Sub a1 a2 | Mul a1 a2 | Div a1 a2 | Mod a1 a2 => aarrs a1 ++ aarrs a2
  | Sel t _ _ i => ararrs t ++ aarrs i
  end
with ararrs (t : arr) : list var :=
  match t with
  | AVar c => [c]
  | AStore t1 i v => ararrs t1 ++ aarrs i ++ aarrs v
  end.

Fixpoint barrs (b : bexpr) : list var :=
  match b with
  | Btrue | Bfalse => []
  | Beq a1 a2 | Bne a1 a2 | Blt a1 a2 | Ble a1 a2 | Bgt a1 a2 | Bge a1 a2 =>
      aarrs a1 ++ aarrs a2
  | Bnot b1 => barrs b1
  | Band b1 b2 | Bor b1 b2 => barrs b1 ++ barrs b2
  | Bquant _ _ a1 a2 b1 => aarrs a1 ++ aarrs a2 ++ barrs b1
  | Bfirst _ a1 a2 d f => aarrs a1 ++ aarrs a2 ++ barrs d ++ barrs f
  end.

(** The arrays a program reads or writes ([Syntax.svars] gives its scalar variables). *)
Fixpoint sarrs (p : stmt) : list var :=
  match p with
  | Skip | Fail _ => []
  | Assign _ a => aarrs a
  | AAssign c _ _ i e => c :: aarrs i ++ aarrs e
  | Seq p1 p2 => sarrs p1 ++ sarrs p2
  | If b p1 p2 => barrs b ++ sarrs p1 ++ sarrs p2
  | While b p1 => barrs b ++ sarrs p1
  | Assume b => barrs b
  end.

(** ** The modifies set: the scalar variables a program may assign, and the arrays it may
    write (as whole arrays). *)

Fixpoint mods (p : stmt) : list var :=
  match p with
  | Assign x _ => [x]
  | Seq p1 p2 | If _ p1 p2 => mods p1 ++ mods p2
  | While _ p1 => mods p1
  | _ => []
  end.

Fixpoint amods (p : stmt) : list var :=
  match p with
  | AAssign c _ _ _ _ => [c]
  | Seq p1 p2 | If _ p1 p2 => amods p1 ++ amods p2
  | While _ p1 => amods p1
  | _ => []
  end.

(** ** Havoc, the check of a claim, the rest of a sequence *)

Definition memb (x : var) (l : list var) : bool := existsb (String.eqb x) l.

(** [Sg] with a fresh symbol for each modified variable ([fv x] for [x] in [M]) and array
    ([fa c] for [c] in [A]). *)
Definition havoc (M A : list var) (fv fa : var -> var) (Sg : sstore) : sstore :=
  SStore (fun y => if memb y M then Var (fv y) else ssv Sg y)
         (fun c => if memb c A then AVar (fa c) else ssa Sg c).

(** The havoc of a loop body. *)
Definition hbody (body : stmt) (fv fa : var -> var) (Sg : sstore) : sstore :=
  havoc (mods body) (amods body) fv fa Sg.

(** The check of a claim, as [assert I] is desugared. *)
Definition chk (I : bexpr) : stmt := If I Skip (Fail KFail).

(** [plug p r]: [p] with its head replaced by [r] (the head is the first statement of the
    sequence [p]; [plug p Skip] is what follows it). *)
Fixpoint plug (p r : stmt) : stmt :=
  match p with
  | Seq p1 q => Seq (plug p1 r) q
  | _ => r
  end.

(** [c] is defined and true; defined and false. *)
Definition holds (c : bexpr) : bexpr := Band (bD c) c.
Definition holds_not (c : bexpr) : bexpr := Band (bD c) (Bnot c).

Definition sst (t : sym_state) : sstore := let '(_, Sg, _) := t in Sg.

(** ** The invariant transition *)

(** Which successor: the entry claim, the body (ending with the preservation claim), the
    error of the loop condition, the exit. *)
Inductive vtag : Type := TEntry | TBody | TCond | TExit.

(** [inv_succ I fv fa t g t']: [t'] is a successor of kind [g] of the state [t], whose head
    is a loop with invariant [I], the fresh symbols of the havoc being [fv] and [fa]. *)
Inductive inv_succ (I : bexpr) (fv fa : var -> var) : sym_state -> vtag -> sym_state -> Prop :=
  | V_EntryErr : forall phi Sg p b body k,
      head p = While b body -> bcan k I = true ->
      inv_succ I fv fa (phi, Sg, p) TEntry (Band phi (bF k (bsubst Sg I)), Sg, plug p (Fail k))
  | V_EntryFalse : forall phi Sg p b body,
      head p = While b body ->
      inv_succ I fv fa (phi, Sg, p) TEntry
               (Band phi (holds_not (bsubst Sg I)), Sg, plug p (Fail KFail))
  | V_Body : forall phi Sg p b body,
      head p = While b body ->
      inv_succ I fv fa (phi, Sg, p) TBody
               (Band phi (Band (holds (bsubst (hbody body fv fa Sg) I))
                               (holds (bsubst (hbody body fv fa Sg) b))),
                hbody body fv fa Sg, Seq body (chk I))
  | V_CondErr : forall phi Sg p b body k,
      head p = While b body -> bcan k b = true ->
      inv_succ I fv fa (phi, Sg, p) TCond
               (Band phi (Band (holds (bsubst (hbody body fv fa Sg) I))
                               (bF k (bsubst (hbody body fv fa Sg) b))),
                hbody body fv fa Sg, plug p (Fail k))
  | V_Exit : forall phi Sg p b body,
      head p = While b body ->
      inv_succ I fv fa (phi, Sg, p) TExit
               (Band phi (Band (holds (bsubst (hbody body fv fa Sg) I))
                               (holds_not (bsubst (hbody body fv fa Sg) b))),
                hbody body fv fa Sg, plug p Skip).

(** ** Freshness, relative to the variables [X] and arrays [XA] of the program

    The symbols [fv x] ([x] in [M]) are pairwise distinct, and so are the [fa c] ([c] in
    [A]); none occurs in the path condition or in the entries of [Sg] that are kept (the
    variables of [X] outside [M], the arrays of [XA] outside [A]). *)
Definition fresh (X XA : list var) (phi : bexpr) (Sg : sstore) (M A : list var)
    (fv fa : var -> var) : Prop :=
  (forall x y, In x M -> In y M -> fv x = fv y -> x = y) /\
  (forall c d, In c A -> In d A -> fa c = fa d -> c = d) /\
  (forall x, In x M ->
     ~ In (fv x) (bvars phi) /\
     (forall y, In y X -> ~ In y M -> ~ In (fv x) (avars (ssv Sg y))) /\
     (forall c, In c XA -> ~ In c A -> ~ In (fv x) (arvars (ssa Sg c)))) /\
  (forall c, In c A ->
     ~ In (fa c) (barrs phi) /\
     (forall y, In y X -> ~ In y M -> ~ In (fa c) (aarrs (ssv Sg y))) /\
     (forall d, In d XA -> ~ In d A -> ~ In (fa c) (ararrs (ssa Sg d)))).

(** Outside [X] and [XA], a store is the identity (the variables the program never
    mentions keep their input symbol). *)
Definition id_out (X XA : list var) (Sg : sstore) : Prop :=
  (forall y, ~ In y X -> ssv Sg y = Var y) /\ (forall c, ~ In c XA -> ssa Sg c = AVar c).

(** Concrete stores equal on the variables [X] and the arrays [XA]. *)
Definition agr (X XA : list var) (s1 s2 : store) : Prop :=
  (forall x, In x X -> sv s1 x = sv s2 x) /\ (forall c j, In c XA -> sa s1 c j = sa s2 c j).

(** ** Runs of a given length, ends of runs *)

Inductive nsteps : nat -> cstate -> cstate -> Prop :=
  | ns_refl : forall c, nsteps 0 c c
  | ns_step : forall n c1 c2 c3, step c1 c2 -> nsteps n c2 c3 -> nsteps (S n) c1 c3.

(** A run ends normally ([skip]) or in an error. *)
Definition ends (p : stmt) : Prop := p = Skip \/ is_error p = true.

(** Two end states agree: the same stores on [X], [XA], and both [skip] or both errors of
    the same kind. *)
Definition same_end (X XA : list var) (c1 c2 : cstate) : Prop :=
  agr X XA (fst c1) (fst c2) /\
  ((snd c1 = Skip /\ snd c2 = Skip) \/
   (exists k, error_kind (snd c1) = Some k /\ error_kind (snd c2) = Some k)).

(** A claim of the transition fails at the end state [c] of a run from a successor of kind
    [g]: the entry claim's successor is itself an error state; the preservation claim fails
    when the run of the body ends in the bare [fail] of its final check. *)
Definition claim_fails (g : vtag) (c : cstate) : Prop :=
  (g = TEntry /\ is_error (snd c) = true) \/ (g = TBody /\ exists k, snd c = Fail k).

(** ** The proof mode *)

(** The invariant of a loop [While b body], if it has one. *)
Definition annot : Type := bexpr -> stmt -> option bexpr.

(** The fresh symbols chosen for the havoc at a state. *)
Definition chooser : Type := sym_state -> (var -> var) * (var -> var).

(** The invariant of the loop at the head of [p], if [p] starts with an annotated loop. *)
Definition loop_inv (J : annot) (p : stmt) : option bexpr :=
  match head p with
  | While b body => J b body
  | _ => None
  end.

(** One step of the proof mode: the invariant transition at an annotated loop, the
    symbolic semantics elsewhere (unannotated loops are unrolled). *)
Inductive pstep (J : annot) (ch : chooser) : sym_state -> sym_state -> Prop :=
  | P_Sym : forall t t', loop_inv J (prog t) = None -> sym_step t t' -> pstep J ch t t'
  | P_Inv : forall t I g t',
      loop_inv J (prog t) = Some I -> inv_succ I (fst (ch t)) (snd (ch t)) t g t' ->
      pstep J ch t t'.

Definition psteps (J : annot) (ch : chooser) := star (pstep J ch).

(** The chooser gives fresh symbols at every loop. *)
Definition ch_ok (X XA : list var) (ch : chooser) : Prop :=
  forall phi Sg p b body, head p = While b body ->
    fresh X XA phi Sg (mods body) (amods body) (fst (ch (phi, Sg, p))) (snd (ch (phi, Sg, p))).

(** The invariants of the loops of a program mention only its variables. *)
Definition inv_in (X XA : list var) (J : annot) : Prop :=
  forall b body I, J b body = Some I -> incl (svars (While b body)) X ->
    incl (sarrs (While b body)) XA -> incl (bvars I) X /\ incl (barrs I) XA.

(** *** A chooser: a name longer than every name to avoid *)

Fixpoint pad (n : nat) : string :=
  match n with
  | O => EmptyString
  | S n' => String "'"%char (pad n')
  end.

Definition maxlen (l : list string) : nat := fold_right (fun x m => Nat.max (String.length x) m) O l.

(** The scalar and the array symbols of a state, on [X] and [XA]. *)
Definition syms_v (X XA : list var) (phi : bexpr) (Sg : sstore) : list var :=
  bvars phi ++ flat_map (fun y => avars (ssv Sg y)) X ++ flat_map (fun c => arvars (ssa Sg c)) XA.
Definition syms_a (X XA : list var) (phi : bexpr) (Sg : sstore) : list var :=
  barrs phi ++ flat_map (fun y => aarrs (ssv Sg y)) X ++ flat_map (fun c => ararrs (ssa Sg c)) XA.

(** [x] followed by enough quotes to be longer than every symbol of the state. *)
Definition ch_default (X XA : list var) : chooser :=
  fun t => let '(phi, Sg, _) := t in
    (fun x => String.append x (pad (S (maxlen (syms_v X XA phi Sg)))),
     fun c => String.append c (pad (S (maxlen (syms_a X XA phi Sg))))).

(** *** The desugared loop: its body ends with the check of the invariant *)

Definition chk_of (q : stmt) : option bexpr :=
  match q with
  | If c Skip (Fail KFail) => Some c
  | _ => None
  end.

(** [while b invariant I do S od] desugared: [While b (Seq S (chk I))]. *)
Definition jdesugar : annot :=
  fun _ body => match body with
                | Seq _ q => chk_of q
                | _ => None
                end.
