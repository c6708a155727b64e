(** * Proofs of [Merge.v]: the merge of symbolic states with the same continuation is
    precise, and exhaustive when the merged states agree wherever their path conditions
    overlap (in particular when those are disjoint); replacing a group of states of a
    configuration by its merge keeps the configuration's concretization. *)

From Coq Require Import ZArith String List Bool Sorting.Permutation.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof Expand Expandproof Merge.
Import ListNotations.

(** ** Stores *)

Lemma store_eq_refl : forall s, store_eq s s.
Proof. split; reflexivity. Qed.

Lemma store_eq_sym : forall s1 s2, store_eq s1 s2 -> store_eq s2 s1.
Proof. intros s1 s2 [H1 H2]. split; intros; symmetry; auto. Qed.

Lemma store_eq_trans : forall s1 s2 s3, store_eq s1 s2 -> store_eq s2 s3 -> store_eq s1 s3.
Proof. intros s1 s2 s3 [H1 H2] [H3 H4]. split; intros; etransitivity; eauto. Qed.

Lemma sat_Bor : forall V phi1 phi2, sat V (Bor phi1 phi2) <-> sat V phi1 \/ sat V phi2.
Proof. unfold sat, bevalT. intros. simpl. apply orb_true_iff. Qed.

(** ** Guarded terms and sharing *)

Lemma pick_ite : forall (A : Type) dec V c (g1 g2 : guarded A),
  pick V (ite dec c g1 g2) = pick V (Ite c g1 g2).
Proof.
  intros. unfold ite. destruct (guarded_eq_dec dec g1 g2) as [<- | _]; [| reflexivity].
  simpl. destruct (bevalT V c); reflexivity.
Qed.

(** Sharing equal entries gives the same concrete store as an [Ite] for every entry. *)
Theorem merge_store_share : forall V c G1 G2,
  store_eq (mcompose V (merge_store c G1 G2)) (mcompose V (merge_store_ite c G1 G2)).
Proof. split; intros; simpl; rewrite pick_ite; reflexivity. Qed.

(** The store of a merge denotes the first store where the guard holds, else the second. *)
Lemma merge_store_compose : forall V c G1 G2,
  store_eq (mcompose V (merge_store c G1 G2)) (if bevalT V c then mcompose V G1 else mcompose V G2).
Proof. split; intros; simpl; rewrite pick_ite; simpl; destruct (bevalT V c); reflexivity. Qed.

(** ** Concretization of merged states *)

Lemma mconcretizes_iff : forall V m c,
  mconcretizes V m c <->
  sat V (mpc m) /\ store_eq (fst c) (mcompose V (mst m)) /\ snd c = mprog m.
Proof. intros V [[phi G] p] c. split; intro H; exact H. Qed.

(** An ordinary state and its lifting have the same concretizations. *)
Theorem lift_concretizes : forall V t c, mconcretizes V (lift t) c <-> concretizes V t c.
Proof. intros V [[phi [f g]] p] c. split; intro H; exact H. Qed.

Lemma lift_pc : forall t, mpc (lift t) = pc t.
Proof. intros [[phi ss] p]. reflexivity. Qed.

Lemma lift_prog : forall t, mprog (lift t) = prog t.
Proof. intros [[phi ss] p]. reflexivity. Qed.

(** Disjoint path conditions make two states compatible. *)
Lemma disjoint_compatible : forall m1 m2, disjoint (mpc m1) (mpc m2) -> compatible m1 m2.
Proof. intros m1 m2 H V H1 H2. exfalso. exact (H V H1 H2). Qed.

(** ** Merge of two states *)

Lemma merge_pair_spec : forall m1 m2 m,
  merge_pair m1 m2 = Some m <->
  mprog m1 = mprog m2 /\ m = (Bor (mpc m1) (mpc m2), merge_store (mpc m1) (mst m1) (mst m2), mprog m1).
Proof.
  intros [[phi1 G1] p1] [[phi2 G2] p2] m. simpl.
  destruct (stmt_eq_dec p1 p2) as [<- | Hne]; split.
  - intro H. inversion H. auto.
  - intros [_ ->]. reflexivity.
  - discriminate.
  - intros [E _]. contradiction.
Qed.

(** The merge keeps the constituents' continuation. *)
Theorem merge_pair_prog : forall m1 m2 m,
  merge_pair m1 m2 = Some m -> mprog m = mprog m1 /\ mprog m = mprog m2.
Proof. intros m1 m2 m H. apply merge_pair_spec in H as [E ->]. simpl. auto. Qed.

(** States with different continuations are not merged. *)
Theorem merge_pair_rejects : forall m1 m2,
  mprog m1 <> mprog m2 -> merge_pair m1 m2 = None.
Proof.
  intros m1 m2 H. destruct (merge_pair m1 m2) as [m |] eqn:E; [| reflexivity].
  apply merge_pair_prog in E as [E1 E2]. congruence.
Qed.

(** States with the same continuation are merged. *)
Lemma merge_pair_defined : forall m1 m2,
  mprog m1 = mprog m2 -> exists m, merge_pair m1 m2 = Some m.
Proof. intros m1 m2 H. eexists. apply merge_pair_spec. split; [exact H | reflexivity]. Qed.

(** The path condition of the merge is the disjunction. *)
Lemma merge_pair_pc : forall m1 m2 m V,
  merge_pair m1 m2 = Some m -> (sat V (mpc m) <-> sat V (mpc m1) \/ sat V (mpc m2)).
Proof. intros m1 m2 m V H. apply merge_pair_spec in H as [_ ->]. simpl. apply sat_Bor. Qed.

(** What the merge of two states represents, exactly: what the first represents, and what
    the second represents where the first's path condition does not hold. *)
Theorem merge_pair_concretizes : forall m1 m2 m V c,
  merge_pair m1 m2 = Some m ->
  (mconcretizes V m c <-> mconcretizes V m1 c \/ (~ sat V (mpc m1) /\ mconcretizes V m2 c)).
Proof.
  intros m1 m2 m V c H. apply merge_pair_spec in H as [Ep ->].
  rewrite !mconcretizes_iff. simpl. rewrite sat_Bor.
  pose proof (merge_store_compose V (mpc m1) (mst m1) (mst m2)) as Hs.
  unfold sat in *. destruct (bevalT V (mpc m1)) eqn:E1.
  - split.
    + intros [_ [Hc Hp]]. left. split; [reflexivity |]. split; [| exact Hp].
      exact (store_eq_trans _ _ _ Hc Hs).
    + intros [[_ [Hc Hp]] | [Hn _]]; [| congruence].
      split; [auto |]. split; [| exact Hp]. exact (store_eq_trans _ _ _ Hc (store_eq_sym _ _ Hs)).
  - split.
    + intros [[Hf | H2] [Hc Hp]]; [discriminate |]. right. split; [discriminate |].
      split; [exact H2 |]. split; [exact (store_eq_trans _ _ _ Hc Hs) | congruence].
    + intros [[Hf _] | [_ [H2 [Hc Hp]]]]; [discriminate |].
      split; [auto |]. split; [exact (store_eq_trans _ _ _ Hc (store_eq_sym _ _ Hs)) | congruence].
Qed.

(** Precision of the merge of two states: every concrete state the merge represents is
    represented by one of them. *)
Theorem merge_pair_precise : forall m1 m2 m,
  merge_pair m1 m2 = Some m -> precise [m1; m2] [m].
Proof.
  intros m1 m2 m H o V c Ho Hc. destruct Ho as [<- | []].
  apply (merge_pair_concretizes _ _ _ V c H) in Hc as [Hc | [_ Hc]].
  - exists m1. simpl. auto.
  - exists m2. simpl. auto.
Qed.

(** Exhaustiveness of the merge of two compatible states: every concrete state one of them
    represents is represented by the merge. *)
Theorem merge_pair_exhaustive : forall m1 m2 m,
  merge_pair m1 m2 = Some m -> compatible m1 m2 -> exhaustive [m1; m2] [m].
Proof.
  intros m1 m2 m H Hcomp i V c Hi Hc. exists m. split; [left; reflexivity |].
  apply (merge_pair_concretizes _ _ _ V c H).
  destruct Hi as [<- | [<- | []]]; [left; exact Hc |].
  destruct (bevalT V (mpc m1)) eqn:E1.
  - left. apply mconcretizes_iff in Hc as [H2 [Hs Hp]]. apply mconcretizes_iff.
    pose proof (merge_pair_prog _ _ _ H) as [P1 P2].
    split; [exact E1 |]. split; [| congruence].
    exact (store_eq_trans _ _ _ Hs (store_eq_sym _ _ (Hcomp V E1 H2))).
  - right. split; [unfold sat; congruence | exact Hc].
Qed.

(** ** Merge of a list of states *)

Lemma merge_states_cons : forall m0 m1 l,
  merge_states (m0 :: m1 :: l) =
  match merge_states (m1 :: l) with Some m' => merge_pair m0 m' | None => None end.
Proof. reflexivity. Qed.

(** Every constituent has the merge's continuation. *)
Theorem merge_states_prog : forall l m,
  merge_states l = Some m -> forall t, In t l -> mprog t = mprog m.
Proof.
  induction l as [| m0 l IH]; intros m H t Ht; [discriminate |].
  destruct l as [| m1 l'].
  - inversion H; subst. destruct Ht as [<- | []]. reflexivity.
  - rewrite merge_states_cons in H. destruct (merge_states (m1 :: l')) as [m' |] eqn:E; [| discriminate].
    pose proof (merge_pair_prog _ _ _ H) as [P0 P'].
    destruct Ht as [<- | Ht]; [auto |].
    rewrite P'. exact (IH _ eq_refl _ Ht).
Qed.

(** A list with two different continuations is not merged. *)
Theorem merge_states_rejects : forall l t1 t2,
  In t1 l -> In t2 l -> mprog t1 <> mprog t2 -> merge_states l = None.
Proof.
  intros l t1 t2 H1 H2 Hne. destruct (merge_states l) as [m |] eqn:E; [| reflexivity].
  rewrite (merge_states_prog _ _ E _ H1), (merge_states_prog _ _ E _ H2) in Hne. congruence.
Qed.

(** A non-empty list with one continuation is merged. *)
Theorem merge_states_defined : forall l,
  l <> [] -> (forall t1 t2, In t1 l -> In t2 l -> mprog t1 = mprog t2) ->
  exists m, merge_states l = Some m.
Proof.
  induction l as [| m0 l IH]; intros Hl Hp; [contradiction |].
  destruct l as [| m1 l']; [exists m0; reflexivity |].
  destruct IH as [m' E].
  - discriminate.
  - intros t1 t2 H1 H2. apply Hp; right; assumption.
  - rewrite merge_states_cons, E. apply merge_pair_defined.
    rewrite <- (merge_states_prog _ _ E m1 (or_introl eq_refl)). apply Hp; simpl; auto.
Qed.

(** The path condition of the merge is the disjunction of the constituents'. *)
Theorem merge_states_pc : forall l m V,
  merge_states l = Some m -> (sat V (mpc m) <-> exists t, In t l /\ sat V (mpc t)).
Proof.
  induction l as [| m0 l IH]; intros m V H; [discriminate |].
  destruct l as [| m1 l'].
  - inversion H; subst. split; [intro; exists m; simpl; auto |].
    intros [t [[<- | []] Ht]]. exact Ht.
  - rewrite merge_states_cons in H. destruct (merge_states (m1 :: l')) as [m' |] eqn:E; [| discriminate].
    rewrite (merge_pair_pc _ _ _ V H), (IH _ V eq_refl). split.
    + intros [H0 | [t [Ht Hs]]]; [exists m0; simpl; auto | exists t; simpl; auto].
    + intros [t [[<- | Ht] Hs]]; [left; exact Hs | right; exists t; auto].
Qed.

(** Precision of the merge of a list: every concrete state the merge represents is
    represented by a constituent. *)
Theorem merge_states_precise : forall l m,
  merge_states l = Some m -> precise l [m].
Proof.
  induction l as [| m0 l IH]; intros m H o V c Ho Hc; [discriminate |].
  destruct Ho as [Ho | []]. subst o.
  destruct l as [| m1 l'].
  - inversion H; subst. exists m. simpl. auto.
  - rewrite merge_states_cons in H. destruct (merge_states (m1 :: l')) as [m' |] eqn:E; [| discriminate].
    destruct (merge_pair_precise _ _ _ H m V c (or_introl eq_refl) Hc) as [i [Hi Hic]].
    destruct Hi as [Hi | [Hi | []]]; subst i; [exists m0; simpl; auto |].
    destruct (IH _ eq_refl m' V c (or_introl eq_refl) Hic) as [j [Hj Hjc]].
    exists j. simpl. auto.
Qed.

(** Under a valuation of its path condition the merge denotes the store of a constituent
    whose path condition holds. *)
Lemma merge_states_store : forall l m V,
  merge_states l = Some m -> sat V (mpc m) ->
  exists t, In t l /\ sat V (mpc t) /\ store_eq (mcompose V (mst m)) (mcompose V (mst t)).
Proof.
  intros l m V H Hs.
  assert (Hc : mconcretizes V m (mcompose V (mst m), mprog m)).
  { apply mconcretizes_iff. simpl. split; [exact Hs |]. split; [apply store_eq_refl | reflexivity]. }
  destruct (merge_states_precise _ _ H m V _ (or_introl eq_refl) Hc) as [t [Ht Htc]].
  apply mconcretizes_iff in Htc as [Hst [Hse _]]. simpl in Hse. eauto.
Qed.

(** A state compatible with every constituent is compatible with their merge. *)
Lemma compatible_merge : forall m0 l m,
  merge_states l = Some m -> Forall (compatible m0) l -> compatible m0 m.
Proof.
  intros m0 l m H Hf V H0 Hm.
  destruct (merge_states_store _ _ V H Hm) as [t [Ht [Hst Hse]]].
  rewrite Forall_forall in Hf.
  exact (store_eq_trans _ _ _ (Hf t Ht V H0 Hst) (store_eq_sym _ _ Hse)).
Qed.

(** Exhaustiveness of the merge of a list of pairwise compatible states: every concrete
    state a constituent represents is represented by the merge. *)
Theorem merge_states_exhaustive : forall l m,
  merge_states l = Some m -> ForallOrdPairs compatible l -> exhaustive l [m].
Proof.
  induction l as [| m0 l IH]; intros m H Hc i V c Hi Hic; [discriminate |].
  exists m. split; [left; reflexivity |].
  destruct l as [| m1 l'].
  - inversion H; subst. destruct Hi as [<- | []]. exact Hic.
  - rewrite merge_states_cons in H. destruct (merge_states (m1 :: l')) as [m' |] eqn:E; [| discriminate].
    inversion Hc as [| a l0 Hf Hc' Heq]; subst.
    assert (Hcomp : compatible m0 m') by exact (compatible_merge _ _ _ E Hf).
    destruct Hi as [<- | Hi].
    + destruct (merge_pair_exhaustive _ _ _ H Hcomp m0 V c (or_introl eq_refl) Hic) as [o [[<- | []] Ho]].
      exact Ho.
    + destruct (IH _ eq_refl Hc' i V c Hi Hic) as [o [[<- | []] Ho]].
      destruct (merge_pair_exhaustive _ _ _ H Hcomp m' V c (or_intror (or_introl eq_refl)) Ho)
        as [o' [[<- | []] Ho']].
      exact Ho'.
Qed.

(** ** Merge of ordinary symbolic states, with the concretization of [Symbolic.v] *)

Lemma ForallOrdPairs_map : forall (A B : Type) (f : A -> B) (R : B -> B -> Prop) l,
  ForallOrdPairs (fun x y => R (f x) (f y)) l -> ForallOrdPairs R (map f l).
Proof.
  induction l as [| a l IH]; intro H; simpl; constructor.
  - inversion H; subst. apply Forall_map. assumption.
  - inversion H; subst. auto.
Qed.

Lemma ForallOrdPairs_impl : forall (A : Type) (R R' : A -> A -> Prop) l,
  (forall x y, R x y -> R' x y) -> ForallOrdPairs R l -> ForallOrdPairs R' l.
Proof.
  induction l as [| a l IH]; intros HR H; constructor; inversion H; subst.
  - eapply Forall_impl; [| eassumption]. auto.
  - auto.
Qed.

Theorem merge_sym_prog : forall ts m,
  merge_sym ts = Some m -> forall t, In t ts -> prog t = mprog m.
Proof.
  intros ts m H t Ht. rewrite <- lift_prog. apply (merge_states_prog _ _ H). apply in_map. exact Ht.
Qed.

(** Precision: every concretization of the merge is a concretization of a constituent. *)
Theorem merge_sym_precise : forall ts m V c,
  merge_sym ts = Some m -> mconcretizes V m c -> exists t, In t ts /\ concretizes V t c.
Proof.
  intros ts m V c H Hc.
  destruct (merge_states_precise _ _ H m V c (or_introl eq_refl) Hc) as [i [Hi Hic]].
  apply in_map_iff in Hi as [t [<- Ht]]. exists t. split; [exact Ht |].
  apply lift_concretizes. exact Hic.
Qed.

(** Exhaustiveness for states with pairwise disjoint path conditions (the states of one
    depth of the symbolic execution tree): every concretization of a constituent is one of
    the merge. *)
Theorem merge_sym_exhaustive : forall ts m t V c,
  merge_sym ts = Some m -> ForallOrdPairs (fun t1 t2 => disjoint (pc t1) (pc t2)) ts ->
  In t ts -> concretizes V t c -> mconcretizes V m c.
Proof.
  intros ts m t V c H Hd Ht Hc.
  assert (Hcomp : ForallOrdPairs compatible (map lift ts)).
  { apply ForallOrdPairs_map. eapply ForallOrdPairs_impl; [| exact Hd].
    intros x y Hxy. apply disjoint_compatible. rewrite !lift_pc. exact Hxy. }
  destruct (merge_states_exhaustive _ _ H Hcomp (lift t) V c (in_map _ _ _ Ht)
              (proj2 (lift_concretizes V t c) Hc)) as [o [[<- | []] Ho]].
  exact Ho.
Qed.

(** ** Transitions over sets of states *)

(** An exhaustive transition loses no concrete state of the configuration. *)
Theorem replaces_exhaustive : forall Cnf I O Cnf' V c,
  replaces Cnf I O Cnf' -> exhaustive I O -> conf_concr Cnf V c -> conf_concr Cnf' V c.
Proof.
  intros Cnf I O Cnf' V c [R [HP ->]] Hex [m [Hm Hmc]].
  apply (Permutation_in _ HP) in Hm. apply in_app_or in Hm as [Hm | Hm].
  - destruct (Hex m V c Hm Hmc) as [o [Ho Hoc]]. exists o. split; [apply in_or_app; left |]; assumption.
  - exists m. split; [apply in_or_app; right |]; assumption.
Qed.

(** A precise transition adds no concrete state to the configuration. *)
Theorem replaces_precise : forall Cnf I O Cnf' V c,
  replaces Cnf I O Cnf' -> precise I O -> conf_concr Cnf' V c -> conf_concr Cnf V c.
Proof.
  intros Cnf I O Cnf' V c [R [HP ->]] Hpr [m [Hm Hmc]].
  apply in_app_or in Hm as [Hm | Hm].
  - destruct (Hpr m V c Hm Hmc) as [i [Hi Hic]]. exists i. split; [| exact Hic].
    apply (Permutation_in _ (Permutation_sym HP)). apply in_or_app. left. exact Hi.
  - exists m. split; [| exact Hmc].
    apply (Permutation_in _ (Permutation_sym HP)). apply in_or_app. right. exact Hm.
Qed.

(** The merging transition adds no concrete state (the soundness side of the search). *)
Theorem merge_step_sound : forall Cnf I m Cnf' V c,
  merge_step Cnf I m Cnf' -> conf_concr Cnf' V c -> conf_concr Cnf V c.
Proof.
  intros Cnf I m Cnf' V c [H HR]. apply (replaces_precise _ _ _ _ V c HR).
  exact (merge_states_precise _ _ H).
Qed.

(** The merging transition of pairwise compatible states loses no concrete state (the
    completeness side of the search). *)
Theorem merge_step_complete : forall Cnf I m Cnf' V c,
  merge_step Cnf I m Cnf' -> ForallOrdPairs compatible I -> conf_concr Cnf V c -> conf_concr Cnf' V c.
Proof.
  intros Cnf I m Cnf' V c [H HR] Hc. apply (replaces_exhaustive _ _ _ _ V c HR).
  exact (merge_states_exhaustive _ _ H Hc).
Qed.

(** Both: replacing pairwise compatible states by their merge keeps the configuration's
    concretization exactly. *)
Theorem merge_step_exact : forall Cnf I m Cnf',
  merge_step Cnf I m Cnf' -> ForallOrdPairs compatible I ->
  forall V c, conf_concr Cnf V c <-> conf_concr Cnf' V c.
Proof.
  intros Cnf I m Cnf' H Hc V c. split.
  - exact (merge_step_complete _ _ _ _ V c H Hc).
  - exact (merge_step_sound _ _ _ _ V c H).
Qed.

(** ** The merge policy *)

(** A group the policy allows is merged, and its merge is a merging transition of the
    level. *)
Theorem merge_policy_step : forall lvl I,
  merge_policy lvl I -> exists m lvl', merge_step lvl I m lvl'.
Proof.
  intros lvl I [Hne [[R HP] Hp]].
  destruct (merge_states_defined I Hne Hp) as [m E].
  exists m, ([m] ++ R). split; [exact E |]. exists R. auto.
Qed.

(** ** The states of one depth of the symbolic execution tree have disjoint path conditions,
    so the policy's merges are exact *)

Lemma sat_Band : forall V b1 b2, sat V (Band b1 b2) <-> sat V b1 /\ sat V b2.
Proof. unfold sat, bevalT. intros. simpl. apply andb_true_iff. Qed.

Lemma sat_Bnot : forall V b, sat V (Bnot b) <-> ~ sat V b.
Proof.
  unfold sat, bevalT. intros. simpl. destruct (bevalTE [] V b); simpl; split; congruence.
Qed.

Lemma ForallOrdPairs_app : forall (A : Type) (R : A -> A -> Prop) l1 l2,
  ForallOrdPairs R l1 -> ForallOrdPairs R l2 -> (forall a b, In a l1 -> In b l2 -> R a b) ->
  ForallOrdPairs R (l1 ++ l2).
Proof.
  induction l1 as [| a l1 IH]; intros l2 H1 H2 Hx; [exact H2 |].
  inversion H1; subst. simpl. constructor.
  - apply Forall_app. split; [assumption |].
    apply Forall_forall. intros b Hb. apply Hx; simpl; auto.
  - apply IH; auto. intros x y Hxa Hy. apply Hx; simpl; auto.
Qed.

Lemma ForallOrdPairs_app_l : forall (A : Type) (R : A -> A -> Prop) l1 l2,
  ForallOrdPairs R (l1 ++ l2) -> ForallOrdPairs R l1.
Proof.
  induction l1 as [| a l1 IH]; intros l2 H; [constructor |].
  inversion H; subst. constructor.
  - apply Forall_app in H2. tauto.
  - eauto.
Qed.

Lemma Forall_perm : forall (A : Type) (P : A -> Prop) l l',
  Permutation l l' -> Forall P l -> Forall P l'.
Proof.
  intros A P l l' HP H. rewrite Forall_forall in *. intros x Hx.
  apply H. exact (Permutation_in _ (Permutation_sym HP) Hx).
Qed.

(** For a symmetric relation, "every pair" does not depend on the order of the list. *)
Lemma ForallOrdPairs_perm : forall (A : Type) (R : A -> A -> Prop) l l',
  (forall x y, R x y -> R y x) -> Permutation l l' -> ForallOrdPairs R l -> ForallOrdPairs R l'.
Proof.
  intros A R l l' Hs HP. induction HP; intro H.
  - exact H.
  - inversion H; subst. constructor; [exact (Forall_perm _ _ _ _ HP H2) | auto].
  - inversion H as [| a l0 Hy Hxl]; subst. inversion Hxl as [| b l1 Hx Hl]; subst.
    inversion Hy; subst. constructor; [constructor; auto |]. constructor; assumption.
  - auto.
Qed.

Lemma compatible_sym : forall m1 m2, compatible m1 m2 -> compatible m2 m1.
Proof. intros m1 m2 H V H2 H1. apply store_eq_sym. exact (H V H1 H2). Qed.

(** A successor's path condition implies its parent's. *)
Lemma sym_step_pc : forall t t' V, sym_step t t' -> sat V (pc t') -> sat V (pc t).
Proof.
  intros t t' V H. induction H; simpl; intro Hs; try exact Hs; try (apply sat_Band in Hs; tauto).
  auto.
Qed.

Lemma expand_state_pc : forall t t' V, In t' (expand_state t) -> sat V (pc t') -> sat V (pc t).
Proof.
  intros [[phi ss] p] t' V H. apply expand_correct in H. exact (sym_step_pc _ _ V H).
Qed.

Local Notation pdisjoint := (fun t1 t2 : sym_state => disjoint (pc t1) (pc t2)).

Lemma err_succs_pc : forall can F phi ss t,
  In t (err_succs can F phi ss) -> exists k, pc t = Band phi (F k).
Proof.
  intros can F phi ss t H. unfold err_succs in H.
  destruct (can KDiv), (can KIdx); simpl in H;
    repeat (destruct H as [<- | H]; [eexists; reflexivity |]); destruct H.
Qed.

Lemma err_succs_disjoint : forall can F phi ss,
  (forall V k1 k2, sat V (F k1) -> sat V (F k2) -> k1 = k2) ->
  ForallOrdPairs pdisjoint (err_succs can F phi ss).
Proof.
  intros can F phi ss HF. unfold err_succs.
  destruct (can KDiv), (can KIdx); simpl; repeat constructor.
  intros V H1 H2. apply sat_Band in H1 as [_ H1]. apply sat_Band in H2 as [_ H2].
  discriminate (HF V _ _ H1 H2).
Qed.

(** The successors of one expansion: some that all need the definedness [D], then the
    error successors, whose first-failure formulas exclude [D] and each other. *)
Lemma heads_err_disjoint : forall heads can D F phi ss,
  ForallOrdPairs pdisjoint heads ->
  (forall t V, In t heads -> sat V (pc t) -> sat V D) ->
  (forall V k, sat V D -> sat V (F k) -> False) ->
  (forall V k1 k2, sat V (F k1) -> sat V (F k2) -> k1 = k2) ->
  ForallOrdPairs pdisjoint (heads ++ err_succs can F phi ss).
Proof.
  intros heads can D F phi ss Hh HD HDF HF. apply ForallOrdPairs_app; [exact Hh | apply err_succs_disjoint; exact HF |].
  intros a b Ha Hb V Hsa Hsb. apply err_succs_pc in Hb as [k Hk]. rewrite Hk in Hsb.
  apply sat_Band in Hsb as [_ Hsb]. exact (HDF V k (HD a V Ha Hsa) Hsb).
Qed.

Lemma expand_seq : forall phi ss p q,
  p <> Skip -> expand phi ss (Seq p q) = map (then_do q) (expand phi ss p).
Proof. intros phi ss p q H. destruct p; try reflexivity. contradiction. Qed.

Lemma then_do_pc : forall q t, pc (then_do q t) = pc t.
Proof. intros q [[phi ss] p]. reflexivity. Qed.

Lemma aD_aF : forall V k e, sat V (aD e) -> sat V (aF k e) -> False.
Proof.
  intros V k e H1 H2. apply aD_correct in H1 as [v Hv]. apply aF_correct in H2. congruence.
Qed.

Lemma aF_aF : forall V k1 k2 e, sat V (aF k1 e) -> sat V (aF k2 e) -> k1 = k2.
Proof. intros V k1 k2 e H1 H2. apply aF_correct in H1, H2. congruence. Qed.

Lemma bD_bF : forall V k b, sat V (bD b) -> sat V (bF k b) -> False.
Proof.
  intros V k b H1 H2. apply bD_correct in H1 as [v Hv]. apply bF_correct in H2. congruence.
Qed.

Lemma bF_bF : forall V k1 k2 b, sat V (bF k1 b) -> sat V (bF k2 b) -> k1 = k2.
Proof. intros V k1 k2 b H1 H2. apply bF_correct in H1, H2. congruence. Qed.

Lemma wD_wF : forall V k lo hi i e, sat V (wD lo hi i e) -> sat V (wF k lo hi i e) -> False.
Proof.
  intros V k lo hi i e H1 H2. apply wD_correct in H1 as [v Hv]. apply wF_correct in H2. congruence.
Qed.

Lemma wF_wF : forall V k1 k2 lo hi i e,
  sat V (wF k1 lo hi i e) -> sat V (wF k2 lo hi i e) -> k1 = k2.
Proof. intros V k1 k2 lo hi i e H1 H2. apply wF_correct in H1, H2. congruence. Qed.

(** The successors of one state have pairwise disjoint path conditions. *)
Lemma expand_disjoint : forall phi ss p, ForallOrdPairs pdisjoint (expand phi ss p).
Proof.
  intros phi ss p. revert phi ss. induction p; intros phi ss.
  - constructor.
  - constructor.
  - (* Assign *)
    apply (heads_err_disjoint [_] _ (aD (asubst ss a))).
    + repeat constructor.
    + intros t V [<- | []] Hs. apply sat_Band in Hs. tauto.
    + intros V k. apply aD_aF.
    + intros V k1 k2. apply aF_aF.
  - (* AAssign *)
    apply (heads_err_disjoint [_] _ (wD lo hi (asubst ss i) (asubst ss e))).
    + repeat constructor.
    + intros t V [<- | []] Hs. apply sat_Band in Hs. tauto.
    + intros V k. apply wD_wF.
    + intros V k1 k2. apply wF_wF.
  - (* Seq *)
    destruct (stmt_eq_dec p1 Skip) as [-> | Hne].
    + simpl. repeat constructor.
    + rewrite expand_seq by exact Hne. apply ForallOrdPairs_map.
      eapply ForallOrdPairs_impl; [| apply IHp1]. simpl. intros x y Hxy. rewrite !then_do_pc. exact Hxy.
  - (* If *)
    apply (heads_err_disjoint [_; _] _ (bD (bsubst ss b))).
    + constructor; [| repeat constructor]. constructor; [| constructor].
      simpl. intros V H1 H2. apply sat_Band in H1 as [_ H1]. apply sat_Band in H2 as [_ H2].
      apply sat_Band in H1 as [_ H1]. apply sat_Band in H2 as [_ H2]. apply sat_Bnot in H2. auto.
    + intros t V [<- | [<- | []]] Hs; simpl in Hs; apply sat_Band in Hs as [_ Hs];
        apply sat_Band in Hs; tauto.
    + intros V k. apply bD_bF.
    + intros V k1 k2. apply bF_bF.
  - (* While *)
    repeat constructor.
  - (* Assume *)
    apply (heads_err_disjoint [_] _ (bD (bsubst ss b))).
    + repeat constructor.
    + intros t V [<- | []] Hs. simpl in Hs. apply sat_Band in Hs as [_ Hs]. apply sat_Band in Hs. tauto.
    + intros V k. apply bD_bF.
    + intros V k1 k2. apply bF_bF.
Qed.

(** One round of breadth-first expansion keeps the path conditions pairwise disjoint. *)
Lemma flat_map_expand_disjoint : forall l,
  ForallOrdPairs pdisjoint l -> ForallOrdPairs pdisjoint (flat_map expand_state l).
Proof.
  induction l as [| t l IH]; intro H; [constructor |].
  inversion H as [| a l0 Hf Hl]; subst. simpl. apply ForallOrdPairs_app.
  - destruct t as [[phi ss] p]. apply expand_disjoint.
  - auto.
  - intros a b Ha Hb V Hsa Hsb. apply in_flat_map in Hb as [t' [Ht' Hb]].
    rewrite Forall_forall in Hf.
    exact (Hf t' Ht' V (expand_state_pc _ _ V Ha Hsa) (expand_state_pc _ _ V Hb Hsb)).
Qed.

(** The states of one depth of the tree of a queue with pairwise disjoint path conditions
    have pairwise disjoint path conditions. *)
Theorem level_disjoint : forall l d,
  ForallOrdPairs pdisjoint l -> ForallOrdPairs pdisjoint (level l d).
Proof.
  intros l d H. induction d as [| d IH]; [exact H |]. simpl. apply flat_map_expand_disjoint. exact IH.
Qed.

(** In particular those of the tree of a program. *)
Corollary level_init_disjoint : forall p d, ForallOrdPairs pdisjoint (level [sym_init p] d).
Proof. intros p d. apply level_disjoint. repeat constructor. Qed.

(** Merging by the policy, a group of states of one depth of the tree of a program with
    one continuation, is a merging transition that keeps that depth's concretization
    exactly: nothing is lost (exhaustive), nothing is added (precise). *)
Theorem merge_policy_exact : forall p d I,
  merge_policy (map lift (level [sym_init p] d)) I ->
  exists m Cnf', merge_step (map lift (level [sym_init p] d)) I m Cnf' /\
    forall V c, conf_concr (map lift (level [sym_init p] d)) V c <-> conf_concr Cnf' V c.
Proof.
  intros p d I Hpol.
  destruct (merge_policy_step _ _ Hpol) as [m [Cnf' Hstep]].
  exists m, Cnf'. split; [exact Hstep |]. apply (merge_step_exact _ _ _ _ Hstep).
  destruct Hpol as [_ [[R HP] _]].
  apply (ForallOrdPairs_app_l _ _ _ R).
  apply (ForallOrdPairs_perm _ _ _ _ compatible_sym HP).
  apply ForallOrdPairs_map. eapply ForallOrdPairs_impl; [| apply level_init_disjoint].
  simpl. intros x y Hxy. apply disjoint_compatible. rewrite !lift_pc. exact Hxy.
Qed.

(** ** Expansion of merged states *)

Lemma pick_gmap : forall (A B : Type) (f : A -> B) V g, pick V (gmap f g) = f (pick V g).
Proof. induction g; simpl; [reflexivity |]. destruct (bevalT V c); assumption. Qed.

Lemma pick_gbind : forall (A B : Type) (f : A -> guarded B) V g,
  pick V (gbind g f) = pick V (f (pick V g)).
Proof. induction g; simpl; [reflexivity |]. destruct (bevalT V c); assumption. Qed.

Lemma pick_gmap2 : forall (A B C : Type) (f : A -> B -> C) V g1 g2,
  pick V (gmap2 f g1 g2) = f (pick V g1) (pick V g2).
Proof. intros. unfold gmap2. rewrite pick_gbind, pick_gmap. reflexivity. Qed.

Lemma bevalT_gform : forall V g, bevalT V (gform g) = bevalT V (pick V g).
Proof.
  induction g as [b | c g1 IH1 g2 IH2]; [reflexivity |]. simpl.
  unfold bevalT in *. simpl. rewrite IH1, IH2.
  destruct (bevalTE [] V c); simpl; [apply orb_false_r | reflexivity].
Qed.

Lemma pick_gsubst : forall V G,
  (forall a, pick V (gasubst G a) = asubst (mresolve V G) a) /\
  (forall t, pick V (garsubst G t) = arsubst (mresolve V G) t).
Proof.
  intros V G. apply aexpr_arr_mut; intros; simpl;
    repeat first [rewrite pick_gmap2 | rewrite pick_gmap | rewrite pick_gbind]; simpl; congruence.
Qed.

Lemma pick_gasubst : forall V G a, pick V (gasubst G a) = asubst (mresolve V G) a.
Proof. intros. apply pick_gsubst. Qed.

Lemma pick_gbsubst : forall V G b, pick V (gbsubst G b) = bsubst (mresolve V G) b.
Proof.
  induction b; simpl;
    repeat first [rewrite pick_gmap2 | rewrite pick_gmap | rewrite pick_gbind | rewrite pick_gasubst];
    simpl; repeat first [rewrite pick_gmap2 | rewrite pick_gmap | rewrite pick_gasubst]; congruence.
Qed.

Lemma bevalT_Band : forall V b1 b2, bevalT V (Band b1 b2) = bevalT V b1 && bevalT V b2.
Proof. reflexivity. Qed.

Lemma bevalT_Bnot : forall V b, bevalT V (Bnot b) = negb (bevalT V b).
Proof. reflexivity. Qed.

(** A merged state and the ordinary state it stands for under [V] have the same
    concretizations under [V]. *)
Theorem vequiv_concretizes : forall V m t c,
  vequiv V m t -> (mconcretizes V m c <-> concretizes V t c).
Proof.
  intros V [[phi G] p] [[psi ss] q] c [Hpc [Hv [Ha ->]]].
  unfold mconcretizes, resolve, concretizes, sat. rewrite Hpc.
  assert (Hs : forall s, store_eq s (compose V (mresolve V G)) <-> store_eq s (compose V ss)).
  { intro s. unfold store_eq, compose, mresolve. simpl. split; intros [H1 H2]; split; intros.
    - rewrite H1, Hv. reflexivity.
    - rewrite H2, Ha. reflexivity.
    - rewrite H1, Hv. reflexivity.
    - rewrite H2, Ha. reflexivity. }
  rewrite Hs. tauto.
Qed.

Lemma merr_succs_vequiv : forall V can F F' phi psi G ss,
  bevalT V phi = bevalT V psi -> (forall k, bevalT V (F k) = bevalT V (F' k)) ->
  (forall x, pick V (msv G x) = ssv ss x) -> (forall a, pick V (msa G a) = ssa ss a) ->
  Forall2 (vequiv V) (merr_succs can F phi G) (err_succs can F' psi ss).
Proof.
  intros V can F F' phi psi G ss Hp HF Hv Ha. unfold merr_succs, err_succs.
  destruct (can KDiv), (can KIdx); simpl; repeat constructor; auto;
    rewrite !bevalT_Band, Hp, HF; reflexivity.
Qed.

Lemma mexpand_seq : forall phi G p q,
  p <> Skip -> mexpand phi G (Seq p q) = map (mthen_do q) (mexpand phi G p).
Proof. intros phi G p q H. destruct p; try reflexivity. contradiction. Qed.

Lemma then_do_vequiv : forall V q l1 l2,
  Forall2 (vequiv V) l1 l2 -> Forall2 (vequiv V) (map (mthen_do q) l1) (map (then_do q) l2).
Proof.
  intros V q l1 l2 H. induction H as [| [[phi G] p] [[psi ss] p'] l1 l2 Hx _ IH]; simpl; constructor; auto.
  destruct Hx as [H1 [H2 [H3 H4]]]. simpl. subst. auto.
Qed.

Lemma subst_ext : forall S1 S2,
  (forall x, ssv S1 x = ssv S2 x) -> (forall a, ssa S1 a = ssa S2 a) ->
  (forall a, asubst S1 a = asubst S2 a) /\ (forall t, arsubst S1 t = arsubst S2 t).
Proof. intros S1 S2 Hv Ha. apply aexpr_arr_mut; intros; simpl; congruence. Qed.

Lemma bsubst_ext : forall S1 S2,
  (forall x, ssv S1 x = ssv S2 x) -> (forall a, ssa S1 a = ssa S2 a) ->
  forall b, bsubst S1 b = bsubst S2 b.
Proof.
  intros S1 S2 Hv Ha. pose proof (subst_ext S1 S2 Hv Ha) as [E _].
  induction b; simpl; rewrite ?E; congruence.
Qed.

(** The expansion of a merged state is, under a valuation [V], successor by successor, the
    expansion of any ordinary state it stands for under [V]. *)
Lemma mexpand_vequiv_gen : forall V phi psi G ss p,
  bevalT V phi = bevalT V psi -> (forall x, pick V (msv G x) = ssv ss x) ->
  (forall a, pick V (msa G a) = ssa ss a) ->
  Forall2 (vequiv V) (mexpand phi G p) (expand psi ss p).
Proof.
  intros V phi psi G ss p Hp Hv Ha.
  assert (Ea : forall a, pick V (gasubst G a) = asubst ss a).
  { intro a. rewrite pick_gasubst. apply subst_ext; assumption. }
  assert (Eb : forall b, pick V (gbsubst G b) = bsubst ss b).
  { intro b. rewrite pick_gbsubst. apply bsubst_ext; assumption. }
  assert (Fa : forall (f : aexpr -> bexpr) a, bevalT V (gform (gmap f (gasubst G a))) = bevalT V (f (asubst ss a))).
  { intros. rewrite bevalT_gform, pick_gmap, Ea. reflexivity. }
  assert (Fb : forall (f : bexpr -> bexpr) b, bevalT V (gform (gmap f (gbsubst G b))) = bevalT V (f (bsubst ss b))).
  { intros. rewrite bevalT_gform, pick_gmap, Eb. reflexivity. }
  revert phi psi Hp. induction p; intros phi psi Hp.
  - constructor.
  - constructor.
  - (* Assign *)
    simpl. constructor.
    + simpl. rewrite !bevalT_Band, Fa, Hp. split; [reflexivity |].
      split; [| split; [exact Ha | reflexivity]]. intro y. destruct (String.eqb x y); [apply Ea | apply Hv].
    + apply merr_succs_vequiv; auto.
  - (* AAssign *)
    simpl. constructor.
    + simpl. rewrite !bevalT_Band, bevalT_gform, pick_gmap2, !Ea, Hp.
      split; [reflexivity |]. split; [exact Hv |]. split; [| reflexivity].
      intro b. destruct (String.eqb a b); [| apply Ha].
      rewrite pick_gbind, pick_gmap2, !Ea, Ha. reflexivity.
    + apply merr_succs_vequiv; auto. intro k.
      rewrite bevalT_gform, pick_gmap2, !Ea. reflexivity.
  - (* Seq *)
    destruct (stmt_eq_dec p1 Skip) as [-> | Hne].
    + simpl. repeat constructor; auto.
    + rewrite mexpand_seq, expand_seq by exact Hne. apply then_do_vequiv. apply IHp1. exact Hp.
  - (* If *)
    simpl. constructor; [| constructor].
    + simpl. rewrite !bevalT_Band, Fb, bevalT_gform, Eb, Hp. auto.
    + simpl. rewrite !bevalT_Band, !bevalT_Bnot, Fb, bevalT_gform, Eb, Hp. auto.
    + apply merr_succs_vequiv; auto.
  - (* While *)
    repeat constructor; auto.
  - (* Assume *)
    simpl. constructor.
    + simpl. rewrite !bevalT_Band, Fb, bevalT_gform, Eb, Hp. auto.
    + apply merr_succs_vequiv; auto.
Qed.

(** The expansion of a merged state is, under every valuation [V], successor by successor,
    the expansion of the ordinary state the merged state stands for under [V]. *)
Theorem mexpand_vequiv : forall V phi G p,
  Forall2 (vequiv V) (mexpand phi G p) (expand phi (mresolve V G) p).
Proof. intros. apply mexpand_vequiv_gen; reflexivity. Qed.

(** The same for any ordinary state the merged state stands for under [V]. *)
Corollary mexpand_vequiv_congr : forall V m t,
  vequiv V m t -> Forall2 (vequiv V) (mexpand_state m) (expand_state t).
Proof.
  intros V [[phi G] p] [[psi ss] q] [Hp [Hv [Ha ->]]]. apply mexpand_vequiv_gen; assumption.
Qed.

Corollary mexpand_state_vequiv : forall V m,
  Forall2 (vequiv V) (mexpand_state m) (expand_state (resolve V m)).
Proof. intros V [[phi G] p]. apply mexpand_vequiv. Qed.

Lemma Forall2_In_l : forall {A B : Type} {R : A -> B -> Prop} {l1 l2 x},
  Forall2 R l1 l2 -> In x l1 -> exists y, In y l2 /\ R x y.
Proof.
  intros A B R l1 l2 x H. induction H as [| a b l1 l2 Hab _ IH]; intro Hx; [contradiction |].
  destruct Hx as [<- | Hx]; [exists b; simpl; auto |].
  destruct (IH Hx) as [y [Hy Hr]]. exists y. simpl. auto.
Qed.

Lemma Forall2_In_r : forall {A B : Type} {R : A -> B -> Prop} {l1 l2 y},
  Forall2 R l1 l2 -> In y l2 -> exists x, In x l1 /\ R x y.
Proof.
  intros A B R l1 l2 y H. induction H as [| a b l1 l2 Hab _ IH]; intro Hy; [contradiction |].
  destruct Hy as [<- | Hy]; [exists a; simpl; auto |].
  destruct (IH Hy) as [x [Hx Hr]]. exists x. simpl. auto.
Qed.

(** The expansion of a merged state is exhaustive and precise with respect to the
    symbolic steps of what it stands for: under every valuation [V], a concrete state is
    represented by a successor of the merged state exactly when it is represented by a
    successor ([Symbolic.sym_step]) of the ordinary state the merged state stands for. *)
Theorem mexpand_concretizes : forall V m c,
  (exists m', In m' (mexpand_state m) /\ mconcretizes V m' c) <->
  (exists t', sym_step (resolve V m) t' /\ concretizes V t' c).
Proof.
  intros V m c. pose proof (mexpand_state_vequiv V m) as H.
  assert (Hs : forall t', sym_step (resolve V m) t' <-> In t' (expand_state (resolve V m))).
  { intro t'. destruct m as [[phi G] p]. simpl. split; apply expand_correct. }
  split.
  - intros [m' [Hm Hc]]. destruct (Forall2_In_l H Hm) as [t' [Ht Hv]].
    exists t'. split; [apply Hs; exact Ht | exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc)].
  - intros [t' [Ht Hc]]. apply Hs in Ht. destruct (Forall2_In_r H Ht) as [m' [Hm Hv]].
    exists m'. split; [exact Hm | exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc)].
Qed.

(** ** The merged breadth-first search simulates the tree, valuation by valuation *)

Lemma vequiv_sat : forall V m t, vequiv V m t -> (sat V (mpc m) <-> sat V (pc t)).
Proof. intros V [[phi G] p] [[psi ss] q] [Hp _]. unfold sat. simpl. rewrite Hp. reflexivity. Qed.

Lemma vequiv_lift : forall V t, vequiv V (lift t) t.
Proof. intros V [[phi [f g]] p]. simpl. auto. Qed.

Lemma mexpand_state_pc : forall m m' V, In m' (mexpand_state m) -> sat V (mpc m') -> sat V (mpc m).
Proof.
  intros m m' V Hm Hs. destruct (Forall2_In_l (mexpand_state_vequiv V m) Hm) as [t' [Ht Hv]].
  apply (vequiv_sat _ _ _ Hv) in Hs. apply (expand_state_pc _ _ V Ht) in Hs.
  destruct m as [[phi G] p]. exact Hs.
Qed.

Lemma ForallOrdPairs_In : forall (A : Type) (R : A -> A -> Prop) l a b,
  ForallOrdPairs R l -> In a l -> In b l -> a = b \/ R a b \/ R b a.
Proof.
  induction l as [| x l IH]; intros a b H Ha Hb; [destruct Ha |].
  inversion H as [| x0 l0 Hf Hl]; subst. rewrite Forall_forall in Hf.
  destruct Ha as [<- | Ha], Hb as [<- | Hb].
  - left. reflexivity.
  - right. left. exact (Hf b Hb).
  - right. right. exact (Hf a Ha).
  - exact (IH a b Hl Ha Hb).
Qed.

Lemma ForallOrdPairs_forall : forall (A X : Type) (R : X -> A -> A -> Prop) l,
  (forall v, ForallOrdPairs (R v) l) -> ForallOrdPairs (fun a b => forall v, R v a b) l.
Proof.
  induction l as [| x l IH]; intro H; constructor.
  - apply Forall_forall. intros y Hy v. specialize (H v). inversion H as [| x0 l0 Hf _]; subst.
    rewrite Forall_forall in Hf. exact (Hf y Hy).
  - apply IH. intro v. specialize (H v). inversion H; subst. assumption.
Qed.

Lemma ForallOrdPairs_Forall2 : forall (A B : Type) (R : A -> B -> Prop) (Q : B -> B -> Prop)
    (Q' : A -> A -> Prop) l1 l2,
  Forall2 R l1 l2 -> ForallOrdPairs Q l2 ->
  (forall a b a' b', R a a' -> R b b' -> Q a' b' -> Q' a b) -> ForallOrdPairs Q' l1.
Proof.
  intros A B R Q Q' l1 l2 H. induction H as [| a a' l1 l2 Hr H2 IH]; intros HQ HQQ; [constructor |].
  inversion HQ as [| x0 l0 Hf Hl]; subst. rewrite Forall_forall in Hf. constructor.
  - apply Forall_forall. intros b Hb. destruct (Forall2_In_l H2 Hb) as [b' [Hb' Hrb]].
    exact (HQQ a b a' b' Hr Hrb (Hf b' Hb')).
  - exact (IH Hl HQQ).
Qed.

Lemma ForallOrdPairs_app_r : forall (A : Type) (R : A -> A -> Prop) l1 l2,
  ForallOrdPairs R (l1 ++ l2) -> ForallOrdPairs R l2.
Proof. induction l1 as [| a l1 IH]; intros l2 H; [exact H |]. inversion H; subst. eauto. Qed.

Lemma ForallOrdPairs_app_cross : forall (A : Type) (R : A -> A -> Prop) l1 l2 a b,
  ForallOrdPairs R (l1 ++ l2) -> In a l1 -> In b l2 -> R a b.
Proof.
  induction l1 as [| x l1 IH]; intros l2 a b H Ha Hb; [destruct Ha |].
  inversion H as [| x0 l0 Hf Hl]; subst. destruct Ha as [<- | Ha].
  - rewrite Forall_forall in Hf. apply Hf. apply in_or_app. right. exact Hb.
  - exact (IH l2 a b Hl Ha Hb).
Qed.

Lemma mdisjoint_sym : forall m1 m2, mdisjoint m1 m2 -> mdisjoint m2 m1.
Proof. intros m1 m2 H V H2 H1. exact (H V H1 H2). Qed.

(** The successors of a merged state have pairwise disjoint path conditions. *)
Lemma mexpand_disjoint : forall m, ForallOrdPairs mdisjoint (mexpand_state m).
Proof.
  intro m.
  assert (H : forall V, ForallOrdPairs (fun a b => sat V (mpc a) -> sat V (mpc b) -> False)
                                       (mexpand_state m)).
  { intro V. apply (ForallOrdPairs_Forall2 _ _ (vequiv V) pdisjoint _ _ _ (mexpand_state_vequiv V m)).
    - destruct m as [[phi G] p]. apply expand_disjoint.
    - intros a b a' b' Ha Hb Hd Hsa Hsb.
      exact (Hd V (proj1 (vequiv_sat _ _ _ Ha) Hsa) (proj1 (vequiv_sat _ _ _ Hb) Hsb)). }
  apply (ForallOrdPairs_forall _ _ (fun V a b => sat V (mpc a) -> sat V (mpc b) -> False)) in H.
  eapply ForallOrdPairs_impl; [| exact H]. intros a b Hab V. apply Hab.
Qed.

Lemma flat_map_mexpand_disjoint : forall ML,
  ForallOrdPairs mdisjoint ML -> ForallOrdPairs mdisjoint (flat_map mexpand_state ML).
Proof.
  induction ML as [| m ML IH]; intro H; [constructor |].
  inversion H as [| a l0 Hf Hl]; subst. simpl. apply ForallOrdPairs_app.
  - apply mexpand_disjoint.
  - auto.
  - intros a b Ha Hb V Hsa Hsb. apply in_flat_map in Hb as [m' [Hm' Hb]].
    rewrite Forall_forall in Hf.
    exact (Hf m' Hm' V (mexpand_state_pc _ _ V Ha Hsa) (mexpand_state_pc _ _ V Hb Hsb)).
Qed.

(** A merge keeps the path conditions of a configuration pairwise disjoint. *)
Lemma merge_step_disjoint : forall Cnf I m Cnf',
  merge_step Cnf I m Cnf' -> ForallOrdPairs mdisjoint Cnf -> ForallOrdPairs mdisjoint Cnf'.
Proof.
  intros Cnf I m Cnf' [H [R [HP ->]]] Hd.
  pose proof (ForallOrdPairs_perm _ _ _ _ mdisjoint_sym HP Hd) as Hd'. simpl. constructor.
  - apply Forall_forall. intros r Hr V Hsm Hsr.
    apply (merge_states_pc _ _ V H) in Hsm as [i [Hi Hsi]].
    exact (ForallOrdPairs_app_cross _ _ _ _ _ _ Hd' Hi Hr V Hsi Hsr).
  - exact (ForallOrdPairs_app_r _ _ _ _ Hd').
Qed.

(** [m1] reads, under [V], the same entries and has the same program as [m2]. *)
Definition same_picks (V : store) (m1 m2 : mstate) : Prop :=
  (forall x, pick V (msv (mst m1) x) = pick V (msv (mst m2) x)) /\
  (forall a, pick V (msa (mst m1) a) = pick V (msa (mst m2) a)) /\ mprog m1 = mprog m2.

Lemma pick_merge_store : forall V c G1 G2,
  (forall x, pick V (msv (merge_store c G1 G2) x) = if bevalT V c then pick V (msv G1 x) else pick V (msv G2 x)) /\
  (forall a, pick V (msa (merge_store c G1 G2) a) = if bevalT V c then pick V (msa G1 a) else pick V (msa G2 a)).
Proof. split; intros; simpl; rewrite pick_ite; reflexivity. Qed.

(** Under [V], the merge reads the entries of a constituent whose path condition holds. *)
Lemma merge_states_sel : forall I m V,
  merge_states I = Some m -> sat V (mpc m) -> exists i, In i I /\ sat V (mpc i) /\ same_picks V m i.
Proof.
  induction I as [| m0 I IH]; intros m V H Hs; [discriminate |].
  destruct I as [| m1 I'].
  - inversion H; subst. exists m. split; [left; reflexivity |]. split; [exact Hs |].
    split; [| split]; reflexivity.
  - rewrite merge_states_cons in H. destruct (merge_states (m1 :: I')) as [m' |] eqn:E; [| discriminate].
    pose proof (merge_pair_prog _ _ _ H) as [P0 P'].
    apply merge_pair_spec in H as [Ep ->].
    destruct (pick_merge_store V (mpc m0) (mst m0) (mst m')) as [Pv Pa].
    simpl in Hs. apply sat_Bor in Hs.
    destruct (bevalT V (mpc m0)) eqn:E0.
    + exists m0. split; [left; reflexivity |]. split; [exact E0 |].
      split; [| split]; [intro x; apply Pv | intro a; apply Pa | reflexivity].
    + destruct Hs as [Hs | Hs]; [unfold sat in Hs; congruence |].
      destruct (IH m' V eq_refl Hs) as [i [Hi [Hsi [Qv [Qa Qp]]]]].
      exists i. split; [right; exact Hi |]. split; [exact Hsi |].
      split; [| split].
      * intro x. etransitivity; [apply Pv | apply Qv].
      * intro a. etransitivity; [apply Pa | apply Qa].
      * simpl. congruence.
Qed.

(** With pairwise disjoint path conditions, the constituent is the one whose path condition
    holds. *)
Lemma merge_states_sel_unique : forall I m V i,
  merge_states I = Some m -> ForallOrdPairs mdisjoint I -> In i I -> sat V (mpc i) -> same_picks V m i.
Proof.
  intros I m V i H Hd Hi Hsi.
  assert (Hs : sat V (mpc m)) by (apply (merge_states_pc _ _ V H); eauto).
  destruct (merge_states_sel _ _ V H Hs) as [i' [Hi' [Hsi' Hp]]].
  destruct (ForallOrdPairs_In _ _ _ _ _ Hd Hi Hi') as [<- | [Hd' | Hd']]; [exact Hp | |];
    exfalso; eauto.
Qed.

Lemma vequiv_picks : forall V m i t,
  same_picks V m i -> sat V (mpc m) -> sat V (mpc i) -> vequiv V i t -> vequiv V m t.
Proof.
  intros V [[phi G] p] [[phi' G'] p'] [[psi ss] q] [Qv [Qa Qp]] Hs Hs' [Hp [Hv [Ha Hq]]].
  simpl in *. unfold sat in *. split; [congruence |]. split; [| split]; [| | congruence].
  - intro x. rewrite Qv. apply Hv.
  - intro a. rewrite Qa. apply Ha.
Qed.

(** A merge of states with pairwise disjoint path conditions keeps the simulation. *)
Lemma merge_step_vsim : forall Cnf I m Cnf' V L,
  merge_step Cnf I m Cnf' -> ForallOrdPairs mdisjoint Cnf -> vsim V Cnf L -> vsim V Cnf' L.
Proof.
  intros Cnf I m Cnf' V L [H [R [HP ->]]] Hd [Ha Hb].
  pose proof (ForallOrdPairs_perm _ _ _ _ mdisjoint_sym HP Hd) as Hd'.
  pose proof (ForallOrdPairs_app_l _ _ _ _ Hd') as HdI.
  assert (Hin : forall x, In x (I ++ R) -> In x Cnf) by (intros; exact (Permutation_in _ (Permutation_sym HP) H0)).
  split.
  - intros m'' Hm Hs. destruct Hm as [Hm | Hm].
    + subst m''. destruct (merge_states_sel _ _ V H Hs) as [i [Hi [Hsi Hp]]].
      destruct (Ha i (Hin i (in_or_app _ _ _ (or_introl Hi))) Hsi) as [t [Ht Hv]].
      exists t. split; [exact Ht |]. exact (vequiv_picks _ _ _ _ Hp Hs Hsi Hv).
    + exact (Ha m'' (Hin m'' (in_or_app _ _ _ (or_intror Hm))) Hs).
  - intros t Ht Hs. destruct (Hb t Ht Hs) as [m0 [Hm0 Hv]].
    pose proof (proj2 (vequiv_sat _ _ _ Hv) Hs) as Hs0.
    apply (Permutation_in _ HP) in Hm0. apply in_app_or in Hm0 as [Hm0 | Hm0].
    + assert (Hsm : sat V (mpc m)) by (apply (merge_states_pc _ _ V H); eauto).
      exists m. split; [left; reflexivity |].
      exact (vequiv_picks _ _ _ _ (merge_states_sel_unique _ _ V m0 H HdI Hm0 Hs0) Hsm Hs0 Hv).
    + exists m0. split; [right; exact Hm0 | exact Hv].
Qed.

(** Expanding both sides keeps the simulation. *)
Lemma vsim_expand : forall V ML L,
  vsim V ML L -> vsim V (flat_map mexpand_state ML) (flat_map expand_state L).
Proof.
  intros V ML L [Ha Hb]. split.
  - intros m' Hm' Hs. apply in_flat_map in Hm' as [m [Hm Hm']].
    destruct (Ha m Hm (mexpand_state_pc _ _ V Hm' Hs)) as [t [Ht Hv]].
    destruct (Forall2_In_l (mexpand_vequiv_congr _ _ _ Hv) Hm') as [t' [Ht' Hv']].
    exists t'. split; [apply in_flat_map; eauto | exact Hv'].
  - intros t' Ht' Hs. apply in_flat_map in Ht' as [t [Ht Ht']].
    destruct (Hb t Ht (expand_state_pc _ _ V Ht' Hs)) as [m [Hm Hv]].
    destruct (Forall2_In_r (mexpand_vequiv_congr _ _ _ Hv) Ht') as [m' [Hm' Hv']].
    exists m'. split; [apply in_flat_map; eauto | exact Hv'].
Qed.

(** Every configuration the merged search can have at depth [d] has pairwise disjoint path
    conditions and stands, under every valuation, for depth [d] of the symbolic execution
    tree. *)
Theorem mlevel_sim : forall p d ML,
  mlevel p d ML -> ForallOrdPairs mdisjoint ML /\ forall V, vsim V ML (level [sym_init p] d).
Proof.
  intros p d. induction d as [| d IH]; intros ML H.
  - simpl in H. subst ML. split; [repeat constructor |].
    intro V. split.
    + intros m [<- | []] _. exists (sym_init p). split; [left; reflexivity | exact (vequiv_lift V (sym_init p))].
    + intros t [<- | []] _. exists (lift (sym_init p)). split; [left; reflexivity | exact (vequiv_lift V (sym_init p))].
  - destruct H as [ML0 [H0 Hr]]. destruct (IH ML0 H0) as [Hd Hs].
    simpl. unfold mround in Hr.
    assert (Hinv : ForallOrdPairs mdisjoint (flat_map mexpand_state ML0) /\
                   forall V, vsim V (flat_map mexpand_state ML0) (flat_map expand_state (level [sym_init p] d))).
    { split; [exact (flat_map_mexpand_disjoint _ Hd) | intro V; exact (vsim_expand _ _ _ (Hs V))]. }
    revert Hinv. induction Hr as [Cnf | Cnf Cnf1 Cnf2 [I [m Hm]] _ IHr]; intros [Hd1 Hs1]; [auto |].
    apply IHr. split.
    + exact (merge_step_disjoint _ _ _ _ Hm Hd1).
    + intro V. exact (merge_step_vsim _ _ _ _ V _ Hm Hd1 (Hs1 V)).
Qed.

(** At every depth, whatever it merged, the merged search represents exactly the concrete
    states that depth of the tree represents. *)
Theorem mlevel_concretizes : forall p d ML V c,
  mlevel p d ML ->
  (conf_concr ML V c <-> exists t, In t (level [sym_init p] d) /\ concretizes V t c).
Proof.
  intros p d ML V c H. destruct (mlevel_sim p d ML H) as [_ Hs]. destruct (Hs V) as [Ha Hb]. split.
  - intros [m [Hm Hc]]. pose proof (proj1 (mconcretizes_iff V m c) Hc) as [Hsat _].
    destruct (Ha m Hm Hsat) as [t [Ht Hv]]. exists t. split; [exact Ht |].
    exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc).
  - intros [t [Ht Hc]]. destruct t as [[psi ss] q] eqn:Et. pose proof Hc as [Hsat _].
    rewrite <- Et in *. destruct (Hb t Ht ltac:(rewrite Et; exact Hsat)) as [m [Hm Hv]]. exists m. split; [exact Hm |].
    exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc).
Qed.

(** ** The merged search finds exactly the reachable concrete states and the bugs *)

Lemma level_S : forall l d, level l (S d) = level (flat_map expand_state l) d.
Proof.
  intros l d. revert l. induction d as [| d IH]; intro l; [reflexivity |].
  change (level l (S (S d))) with (flat_map expand_state (level l (S d))). rewrite IH. reflexivity.
Qed.

Lemma level_incl : forall l l' d, incl l l' -> incl (level l d) (level l' d).
Proof.
  intros l l' d H. induction d as [| d IH]; [exact H |]. simpl. intros t Ht.
  apply in_flat_map in Ht as [t' [Ht' Ht]]. apply in_flat_map. eauto.
Qed.

(** Every state of a depth of the tree is reachable from the initial queue. *)
Lemma level_sound : forall l d t, In t (level l d) -> exists t0, In t0 l /\ sym_steps t0 t.
Proof.
  intros l d. induction d as [| d IH]; intros t Ht.
  - exists t. split; [exact Ht | apply star_refl].
  - simpl in Ht. apply in_flat_map in Ht as [t' [Ht' Ht]].
    destruct (IH t' Ht') as [t0 [Ht0 Hs]]. exists t0. split; [exact Ht0 |].
    apply (star_trans _ _ _ _ _ Hs). apply star_one.
    destruct t' as [[phi ss] p]. apply expand_correct. exact Ht.
Qed.

(** Every state reachable from a state is at some depth of its tree. *)
Lemma level_complete : forall t0 t, sym_steps t0 t -> exists d, In t (level [t0] d).
Proof.
  intros t0 t H. induction H as [a | a b c Hab _ [d Hd]].
  - exists O. left. reflexivity.
  - exists (S d). rewrite level_S. apply (level_incl [b]); [| exact Hd].
    intros x [<- | []]. simpl. rewrite app_nil_r.
    destruct a as [[phi ss] p]. apply expand_correct. exact Hab.
Qed.

(** The merged search has a configuration at every depth (the one that merges nothing), so
    [mlevel_complete] below is not vacuous. *)
Theorem mlevel_exists : forall p d, exists ML, mlevel p d ML.
Proof.
  intros p d. induction d as [| d [ML H]]; [eexists; reflexivity |].
  exists (flat_map mexpand_state ML). exists ML. split; [exact H | apply star_refl].
Qed.

(** Soundness of the merged search: whatever it merged, every concrete state a
    configuration of it represents is reachable. *)
Theorem mlevel_sound : forall p d ML V c, mlevel p d ML -> conf_concr ML V c -> CReach p c.
Proof.
  intros p d ML V c H Hc. apply (mlevel_concretizes p d ML V c H) in Hc as [t [Ht Hc]].
  apply Reach_correct. destruct (level_sound _ _ _ Ht) as [t0 [[<- | []] Hs]].
  exists V, t. auto.
Qed.

(** Completeness of the merged search: every reachable concrete state is represented at
    some depth, whatever the search merged. *)
Theorem mlevel_complete : forall p c,
  CReach p c -> exists d, forall ML, mlevel p d ML -> exists V, conf_concr ML V c.
Proof.
  intros p c H. apply Reach_correct in H as [V [t [Hs Hc]]].
  destruct (level_complete _ _ Hs) as [d Hd]. exists d. intros ML HML. exists V.
  apply (mlevel_concretizes p d ML V c HML). eauto.
Qed.

(** The same for bugs: a concrete error state represented by the merged search is a bug,
    and every bug is represented at some depth. *)
Corollary mlevel_bug_sound : forall p d ML V c,
  mlevel p d ML -> conf_concr ML V c -> is_error (snd c) = true -> IsBug p c.
Proof.
  intros p d ML V c H Hc He. destruct (mlevel_sound p d ML V c H Hc) as [V' [s [Hs Hse]]].
  exists V', s. auto.
Qed.

Corollary mlevel_bug_complete : forall p c,
  IsBug p c -> exists d, forall ML, mlevel p d ML -> exists V, conf_concr ML V c.
Proof.
  intros p c [V [s [Hs [Hse He]]]]. apply mlevel_complete. exists V, s. auto.
Qed.
