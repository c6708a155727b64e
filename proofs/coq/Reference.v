(** * Entry points of the executable reference ([proofs/ref], [certsym-ref]).

    The semantics uses stores that are functions; the driver exchanges finite lists.
    This file converts between the two, in Coq, and proves the conversion exact, so
    that the hand-written driver only parses and prints:
    - a concrete store is a list [(x, v)]; unlisted variables are 0 (the tools'
      default input);
    - a symbolic store is a list [(x, e)]; unlisted variables map to themselves
      (the identity store [sid]);
    - results list every variable of the input store and of the program (a step
      or an expansion changes no other variable: [step_frame], [sym_step_frame]). *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Expand Expandproof.
Import ListNotations.

Fixpoint lookup {A : Type} (dflt : var -> A) (l : list (var * A)) (x : var) : A :=
  match l with
  | [] => dflt x
  | (y, v) :: l' => if String.eqb y x then v else lookup dflt l' x
  end.

Definition store_of_list (l : list (var * Z)) : store := lookup (fun _ => 0%Z) l.
Definition sstore_of_list (l : list (var * aexpr)) : sstore := lookup Var l.
Definition to_list {A : Type} (d : list var) (f : var -> A) : list (var * A) :=
  map (fun x => (x, f x)) d.

(** The variables printed in a result. *)
Definition dom {A : Type} (l : list (var * A)) (p : stmt) : list var :=
  nodup string_dec (map fst l ++ svars p).

(** ** Entry points *)

Definition ref_aeval (l : list (var * Z)) (a : aexpr) : option Z := aeval (store_of_list l) a.
Definition ref_beval (l : list (var * Z)) (b : bexpr) : option bool := beval (store_of_list l) b.
Definition ref_is_error (p : stmt) : bool := is_error p.

Inductive ref_result : Type :=
  | RNext (l : list (var * Z)) (p : stmt)
  | RFinal
  | RError
  | RStuck.

Definition ref_step (l : list (var * Z)) (p : stmt) : ref_result :=
  match cstep (store_of_list l) p with
  | Next s' p' => RNext (to_list (dom l p) s') p'
  | Final => RFinal
  | Error => RError
  | Stuck => RStuck
  end.

Definition ref_expand (phi : bexpr) (l : list (var * aexpr)) (p : stmt)
  : list (bexpr * list (var * aexpr) * stmt) :=
  map (fun t => let '(phi', ss', p') := t in (phi', to_list (dom l p) ss', p'))
      (expand phi (sstore_of_list l) p).

(** ** Frame lemmas *)

Lemma not_in_app : forall (x : var) l1 l2, ~ In x (l1 ++ l2) -> ~ In x l1 /\ ~ In x l2.
Proof. intros x l1 l2 H. split; intros H'; apply H, in_or_app; auto. Qed.

Lemma step_frame : forall s p s' p', step (s, p) (s', p') ->
  forall x, ~ In x (svars p) -> s' x = s x.
Proof.
  intros s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc'.
  induction H; intros s0 p0 s0' p0' E E' y Hy; inversion E; inversion E'; subst; try reflexivity.
  - unfold update. destruct (String.eqb_spec x y) as [->|Hne]; [|reflexivity].
    exfalso. apply Hy. left. reflexivity.
  - simpl in Hy. apply not_in_app in Hy. eapply IHstep; eauto; apply Hy.
Qed.

Lemma sym_step_frame : forall phi ss p phi' ss' p', sym_step (phi, ss, p) (phi', ss', p') ->
  forall x, ~ In x (svars p) -> ss' x = ss x.
Proof.
  intros phi ss p phi' ss' p' H. remember (phi, ss, p) as c. remember (phi', ss', p') as c'.
  revert phi ss p phi' ss' p' Heqc Heqc'.
  induction H; intros phi0 ss0 p0 phi0' ss0' p0' E E' y Hy;
    inversion E; inversion E'; subst; try reflexivity.
  - unfold supdate. destruct (String.eqb_spec x y) as [->|Hne]; [|reflexivity].
    exfalso. apply Hy. left. reflexivity.
  - simpl in Hy. apply not_in_app in Hy. eapply IHsym_step; eauto; apply Hy.
Qed.

Lemma lookup_to_list_in : forall A (dflt : var -> A) d f x,
  In x d -> lookup dflt (to_list d f) x = f x.
Proof.
  intros A dflt d f x; induction d as [|y d IH]; intros H; [destruct H|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne]; [reflexivity|].
  apply IH. destruct H as [->|H]; [congruence|assumption].
Qed.

Lemma lookup_to_list_notin : forall A (dflt : var -> A) d f x,
  ~ In x d -> lookup dflt (to_list d f) x = dflt x.
Proof.
  intros A dflt d f x; induction d as [|y d IH]; intros H; [reflexivity|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne].
  - exfalso. apply H. left. reflexivity.
  - apply IH. intros H'. apply H. right. assumption.
Qed.

Lemma lookup_notin_keys : forall A (dflt : var -> A) l x,
  ~ In x (map fst l) -> lookup dflt l x = dflt x.
Proof.
  intros A dflt l x; induction l as [|[y v] l IH]; intros H; [reflexivity|].
  simpl. destruct (String.eqb_spec y x) as [->|Hne].
  - exfalso. apply H. left. reflexivity.
  - apply IH. intros H'. apply H. right. assumption.
Qed.

(** Printing a function on [dom l p] and reading it back gives the function back,
    provided it agrees with the input list outside the program's variables. *)
Lemma to_list_exact : forall A (dflt : var -> A) (l : list (var * A)) p (f : var -> A),
  (forall x, ~ In x (svars p) -> f x = lookup dflt l x) ->
  forall x, lookup dflt (to_list (dom l p) f) x = f x.
Proof.
  intros A dflt l p f Hf x. unfold dom.
  destruct (in_dec string_dec x (nodup string_dec (map fst l ++ svars p))) as [Hin|Hout].
  - apply lookup_to_list_in. assumption.
  - rewrite lookup_to_list_notin by assumption.
    rewrite nodup_In in Hout. apply not_in_app in Hout. destruct Hout as [H1 H2].
    rewrite Hf by assumption. rewrite lookup_notin_keys by assumption. reflexivity.
Qed.

(** ** The entry points are exact *)

Theorem ref_step_next_sound : forall l p l' p',
  ref_step l p = RNext l' p' ->
  exists s', step (store_of_list l, p) (s', p') /\ store_eq (store_of_list l') s'.
Proof.
  intros l p l' p' H. unfold ref_step in H.
  destruct (cstep (store_of_list l) p) as [s' p''| | |] eqn:E; inversion H; subst.
  apply cstep_sound in E. exists s'. split; [assumption|].
  intros x. unfold store_of_list. apply to_list_exact.
  intros y Hy. apply (step_frame _ _ _ _ E y Hy).
Qed.

Theorem ref_step_next_complete : forall l p s' p',
  step (store_of_list l, p) (s', p') ->
  exists l', ref_step l p = RNext l' p' /\ store_eq (store_of_list l') s'.
Proof.
  intros l p s' p' H. exists (to_list (dom l p) s').
  unfold ref_step. rewrite (cstep_complete _ _ _ _ H). split; [reflexivity|].
  intros x. unfold store_of_list. apply to_list_exact.
  intros y Hy. apply (step_frame _ _ _ _ H y Hy).
Qed.

Theorem ref_step_final : forall l p, ref_step l p = RFinal <-> p = Skip.
Proof.
  intros l p. rewrite <- (cstep_final (store_of_list l)). unfold ref_step.
  destruct (cstep (store_of_list l) p); split; congruence.
Qed.

Theorem ref_step_error : forall l p, ref_step l p = RError <-> is_error p = true.
Proof.
  intros l p. rewrite <- (cstep_error (store_of_list l)). unfold ref_step.
  destruct (cstep (store_of_list l) p); split; congruence.
Qed.

Theorem ref_step_stuck : forall l p,
  ref_step l p = RStuck <-> exists b, head p = Assume b /\ ref_beval l b = Some false.
Proof.
  intros l p. unfold ref_beval. rewrite <- cstep_stuck. unfold ref_step.
  destruct (cstep (store_of_list l) p); split; congruence.
Qed.

Theorem ref_expand_sound : forall phi l p phi' l' p',
  In (phi', l', p') (ref_expand phi l p) ->
  exists ss', sym_step (phi, sstore_of_list l, p) (phi', ss', p') /\
              (forall x, sstore_of_list l' x = ss' x).
Proof.
  intros phi l p phi' l' p' H. unfold ref_expand in H.
  apply in_map_iff in H. destruct H as [[[phi'' ss'] p''] [E H]]. inversion E; subst.
  apply expand_sound in H. exists ss'. split; [assumption|].
  intros x. unfold sstore_of_list. apply to_list_exact.
  intros y Hy. apply (sym_step_frame _ _ _ _ _ _ H y Hy).
Qed.

Theorem ref_expand_complete : forall phi l p phi' ss' p',
  sym_step (phi, sstore_of_list l, p) (phi', ss', p') ->
  exists l', In (phi', l', p') (ref_expand phi l p) /\
             (forall x, sstore_of_list l' x = ss' x).
Proof.
  intros phi l p phi' ss' p' H. exists (to_list (dom l p) ss'). split.
  - unfold ref_expand. apply in_map_iff. exists (phi', ss', p').
    split; [reflexivity|]. apply expand_complete. assumption.
  - intros x. unfold sstore_of_list. apply to_list_exact.
    intros y Hy. apply (sym_step_frame _ _ _ _ _ _ H y Hy).
Qed.
