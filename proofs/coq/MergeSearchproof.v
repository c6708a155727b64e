(** * Correctness of the bug finder with state merging ([MergeSearch.v]): Lemma 3.1 and
    Theorems 3.2-3.8 for the breadth-first search that prunes and merges under any merge
    policy that merges in place groups with one continuation ([policy_ok]).

    The argument is valuation by valuation.  The path conditions of the pending states are
    pairwise disjoint at every iteration ([mqueue_disjoint]): the successors of a state are
    pairwise disjoint and imply its path condition, and a merge's path condition is the
    disjunction of its group's.  So, under a valuation [V], at most one pending state has a
    path condition that holds, and a merge that takes it in reads, under [V], exactly its
    entries ([Mergeproof.merge_states_sel_unique]).  Soundness: every state of the stream
    stands, under each valuation satisfying its path condition, for a reachable symbolic
    state ([mqueue_reach]).  Completeness: the state that stands for a state [t] under [V]
    is eventually taken from the queue, because a merge puts the merged state at the place
    of its group's oldest state, so the index of what stands for [t] never grows, and each
    iteration removes the front ([mtrack]); its successors stand for [t]'s successors
    ([Mergeproof.mexpand_vequiv_congr]). *)

From Coq Require Import List Bool Arith Lia Sorting.Permutation.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder Prune Pruneproof Engine Engineproof
  Merge Mergeproof MergeSearch.
Import ListNotations.

(** ** The queue *)

Lemma mqueue_S : forall A pol (succ : nat -> A -> list A) n l,
  mqueue pol succ (S n) l = pol n (bfs_step (succ n) (mqueue pol succ n l)).
Proof. reflexivity. Qed.

Lemma merge_group_cons : forall same q q', merge_group same q q' -> q <> [].
Proof. intros same q q' (pre & x & post & J & R & m & -> & _). destruct pre; discriminate. Qed.

Lemma star_merge_nil : forall same q, star (merge_group same) [] q -> q = [].
Proof.
  intros same q H. remember [] as e eqn:E. destruct H as [a|a b c H _]; [reflexivity|].
  subst. exfalso. exact (merge_group_cons _ _ _ H eq_refl).
Qed.

(** The empty list stays empty. *)
Lemma mqueue_nil : forall pol (succ : nat -> mitem -> list mitem) l n,
  policy_ok pol -> mqueue pol succ n l = [] -> forall k, n <= k -> mqueue pol succ k l = [].
Proof.
  intros pol succ l n Hp H k Hk. induction Hk as [|k Hk IH]; [exact H|].
  rewrite mqueue_S, IH. exact (star_merge_nil _ _ (Hp k [])).
Qed.

Lemma mnth_none : forall A pol (succ : nat -> A -> list A) l n,
  mnth pol succ l n = None <-> mqueue pol succ n l = [].
Proof.
  intros A pol succ l n. unfold mnth. destruct (mqueue pol succ n l); simpl; split; congruence.
Qed.

Lemma mnth_some : forall A pol (succ : nat -> A -> list A) l n x,
  mnth pol succ l n = Some x <-> exists rest, mqueue pol succ n l = x :: rest.
Proof.
  intros A pol succ l n x. unfold mnth. destruct (mqueue pol succ n l) as [|y rest]; simpl.
  - split; [discriminate|]. intros [r H]. discriminate.
  - split; [intros H; inversion H; subst; eauto|]. intros [r H]. inversion H. reflexivity.
Qed.

(** Theorem 3.3 for the queue: after the first [None], only [None]. *)
Lemma mnth_done : forall pol (succ : nat -> mitem -> list mitem) l n,
  policy_ok pol -> mnth pol succ l n = None -> forall k, n <= k -> mnth pol succ l k = None.
Proof.
  intros pol succ l n Hp H k Hk. apply mnth_none. apply mnth_none in H.
  exact (mqueue_nil pol succ l n Hp H k Hk).
Qed.

(** ** Merges in place *)

Lemma interleave_perm : forall A (J R l : list A), interleave J R l -> Permutation l (J ++ R).
Proof.
  intros A J R l H. induction H as [|x l1 l2 l H IH|x l1 l2 l H IH]; simpl.
  - constructor.
  - constructor. exact IH.
  - apply perm_trans with (x :: l1 ++ l2); [constructor; exact IH|apply Permutation_middle].
Qed.

(** An element of an interleaving comes from the first list, or from the second at an index
    no larger. *)
Lemma interleave_nth : forall A (J R l : list A), interleave J R l ->
  forall k x, nth_error l k = Some x -> In x J \/ exists k', k' <= k /\ nth_error R k' = Some x.
Proof.
  intros A J R l H. induction H as [|y l1 l2 l H IH|y l1 l2 l H IH]; intros k x Hk.
  - destruct k; discriminate.
  - destruct k as [|k]; simpl in Hk.
    + inversion Hk; subst. left. left. reflexivity.
    + destruct (IH k x Hk) as [H0|(k' & Hk' & H0)].
      * left. right. exact H0.
      * right. exists k'. split; [lia|exact H0].
  - destruct k as [|k]; simpl in Hk.
    + inversion Hk; subst. right. exists 0. split; [lia|reflexivity].
    + destruct (IH k x Hk) as [H0|(k' & Hk' & H0)].
      * left. exact H0.
      * right. exists (S k'). split; [lia|exact H0].
Qed.

(** A merge seen up to order: the group [x :: J] and the rest [Rest] before, the merge and
    the same rest after. *)
Lemma merge_group_perm : forall same q q', merge_group same q q' ->
  exists x J Rest m, Permutation q ((x :: J) ++ Rest) /\ Permutation q' ((idepth x, m) :: Rest) /\
    merge_states (map istate (x :: J)) = Some m.
Proof.
  intros same q q' (pre & x & post & J & R & m & -> & Hil & _ & Hm & ->).
  exists x, J, (pre ++ R), m. split; [|split; [|exact Hm]].
  - apply perm_trans with (x :: pre ++ post); [apply Permutation_sym, Permutation_middle|].
    simpl. constructor. apply perm_trans with (pre ++ J ++ R).
    + apply Permutation_app_head. apply interleave_perm. exact Hil.
    + apply Permutation_app_swap_app.
  - apply Permutation_sym, Permutation_middle.
Qed.

Local Notation idisj := (fun a b : mitem => mdisjoint (istate a) (istate b)).

Lemma idisj_sym : forall a b : mitem, idisj a b -> idisj b a.
Proof. intros a b H. apply mdisjoint_sym. exact H. Qed.

(** A merge keeps the pending path conditions pairwise disjoint. *)
Lemma merge_group_disjoint : forall same q q',
  merge_group same q q' -> ForallOrdPairs idisj q -> ForallOrdPairs idisj q'.
Proof.
  intros same q q' H Hd. destruct (merge_group_perm _ _ _ H) as (x & J & Rest & m & Hq & Hq' & Hm).
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym Hq) in Hd.
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym (Permutation_sym Hq')). constructor.
  - apply Forall_forall. intros r Hr V Hsm Hsr. simpl in Hsm.
    apply (merge_states_pc _ _ V Hm) in Hsm as [t [Ht Hst]].
    apply in_map_iff in Ht as [i [<- Hi]].
    exact (ForallOrdPairs_app_cross _ _ _ _ _ _ Hd Hi Hr V Hst Hsr).
  - exact (ForallOrdPairs_app_r _ _ _ _ Hd).
Qed.

(** A property of items that a merge inherits from its group holds after a merge. *)
Lemma merge_group_forall : forall (P : mitem -> Prop) same q q',
  (forall x J m, Forall P (x :: J) -> merge_states (map istate (x :: J)) = Some m -> P (idepth x, m)) ->
  merge_group same q q' -> Forall P q -> Forall P q'.
Proof.
  intros P same q q' HP H Hq. destruct (merge_group_perm _ _ _ H) as (x & J & Rest & m & E & E' & Hm).
  apply (Forall_perm _ _ _ _ E) in Hq. apply (Forall_perm _ _ _ _ (Permutation_sym E')).
  apply Forall_app in Hq as [H1 H2]. constructor; [exact (HP x J m H1 Hm)|exact H2].
Qed.

Lemma same_picks_refl : forall V m, same_picks V m m.
Proof. intros V m. split; [|split]; reflexivity. Qed.

Lemma same_picks_trans : forall V a b c, same_picks V a b -> same_picks V b c -> same_picks V a c.
Proof.
  intros V a b c [H1 [H2 H3]] [H4 [H5 H6]]. split; [|split].
  - intro x. rewrite H1. apply H4.
  - intro x. rewrite H2. apply H5.
  - congruence.
Qed.

(** The group of a merge has pairwise disjoint path conditions when the list has. *)
Lemma merge_group_group_disjoint : forall pre x post J R,
  ForallOrdPairs idisj (pre ++ x :: post) -> interleave J R post ->
  ForallOrdPairs mdisjoint (map istate (x :: J)).
Proof.
  intros pre x post J R Hd Hil.
  assert (Permutation (pre ++ x :: post) ((x :: J) ++ (pre ++ R))) as Hq.
  { apply perm_trans with (x :: pre ++ post); [apply Permutation_sym, Permutation_middle|].
    simpl. constructor. apply perm_trans with (pre ++ J ++ R).
    + apply Permutation_app_head. apply interleave_perm. exact Hil.
    + apply Permutation_app_swap_app. }
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym Hq) in Hd.
  apply ForallOrdPairs_app_l in Hd. apply ForallOrdPairs_map. exact Hd.
Qed.

(** Following one pending state through a merge: under a valuation [V] that satisfies its
    path condition, it is itself after the merge, or the merge took it in and then reads its
    entries under [V]; either way at an index no larger. *)
Lemma merge_group_track : forall same q q' V j x,
  merge_group same q q' -> ForallOrdPairs idisj q -> nth_error q j = Some x ->
  sat V (mpc (istate x)) ->
  exists j' y, j' <= j /\ nth_error q' j' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros same q q' V j x (pre & x0 & post & J & R & m & -> & Hil & _ & Hm & ->) Hd Hj Hs.
  pose proof (merge_group_group_disjoint pre x0 post J R Hd Hil) as HG.
  assert (Hmerged : In x (x0 :: J) ->
            exists j' y, j' <= j /\ nth_error (pre ++ (idepth x0, m) :: R) j' = Some y /\
              sat V (mpc (istate y)) /\ same_picks V (istate y) (istate x)).
  { intros Hx. assert (In (istate x) (map istate (x0 :: J))) as Hx' by (apply in_map; exact Hx).
    assert (j >= length pre) as Hjp.
    { destruct (Nat.lt_ge_cases j (length pre)) as [Hlt|Hge]; [|exact Hge].
      exfalso. rewrite nth_error_app1 in Hj by exact Hlt.
      (* [x] is in [pre] and in the group: disjoint from itself, yet satisfied *)
      apply nth_error_In in Hj.
      assert (Permutation (pre ++ x0 :: post) ((x0 :: J) ++ (pre ++ R))) as Hq.
      { apply perm_trans with (x0 :: pre ++ post); [apply Permutation_sym, Permutation_middle|].
        simpl. constructor. apply perm_trans with (pre ++ J ++ R).
        + apply Permutation_app_head. apply interleave_perm. exact Hil.
        + apply Permutation_app_swap_app. }
      apply (ForallOrdPairs_perm _ _ _ _ idisj_sym Hq) in Hd.
      exact (ForallOrdPairs_app_cross _ _ _ _ _ _ Hd Hx (in_or_app _ _ _ (or_introl Hj)) V Hs Hs). }
    exists (length pre), (idepth x0, m). split; [exact Hjp|].
    rewrite nth_error_app2 by lia. rewrite Nat.sub_diag. split; [reflexivity|]. simpl.
    assert (sat V (mpc m)) as Hsm by (apply (merge_states_pc _ _ V Hm); eauto).
    split; [exact Hsm|]. exact (merge_states_sel_unique _ _ V _ Hm HG Hx' Hs). }
  destruct (Nat.lt_ge_cases j (length pre)) as [Hlt|Hge].
  - exists j, x. split; [lia|]. rewrite nth_error_app1 in * by exact Hlt.
    split; [exact Hj|]. split; [exact Hs|apply same_picks_refl].
  - rewrite nth_error_app2 in Hj by exact Hge. destruct (j - length pre) as [|k] eqn:Ek.
    + simpl in Hj. inversion Hj; subst. apply Hmerged. left. reflexivity.
    + simpl in Hj. destruct (interleave_nth _ _ _ _ Hil k x Hj) as [HJ|(k' & Hk' & HR)].
      * apply Hmerged. right. exact HJ.
      * exists (length pre + S k'), x. split; [lia|].
        rewrite nth_error_app2 by lia. replace (length pre + S k' - length pre) with (S k') by lia.
        simpl. split; [exact HR|]. split; [exact Hs|apply same_picks_refl].
Qed.

(** The same through any number of merges. *)
Lemma star_merge_disjoint : forall same q q',
  star (merge_group same) q q' -> ForallOrdPairs idisj q -> ForallOrdPairs idisj q'.
Proof.
  intros same q q' H. induction H as [a|a b c Hab _ IH]; intro Hd; [exact Hd|].
  apply IH. exact (merge_group_disjoint _ _ _ Hab Hd).
Qed.

Lemma star_merge_forall : forall (P : mitem -> Prop) same q q',
  (forall x J m, Forall P (x :: J) -> merge_states (map istate (x :: J)) = Some m -> P (idepth x, m)) ->
  star (merge_group same) q q' -> Forall P q -> Forall P q'.
Proof.
  intros P same q q' HP H. induction H as [a|a b c Hab _ IH]; intro Hq; [exact Hq|].
  apply IH. exact (merge_group_forall P _ _ _ HP Hab Hq).
Qed.

Lemma star_merge_track : forall same q q' V j x,
  star (merge_group same) q q' -> ForallOrdPairs idisj q -> nth_error q j = Some x ->
  sat V (mpc (istate x)) ->
  exists j' y, j' <= j /\ nth_error q' j' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros same q q' V j x H. revert j x. induction H as [a|a b c Hab _ IH]; intros j x Hd Hj Hs.
  - exists j, x. split; [lia|]. split; [exact Hj|]. split; [exact Hs|apply same_picks_refl].
  - destruct (merge_group_track _ _ _ V j x Hab Hd Hj Hs) as (j1 & y & Hj1 & Hy & Hsy & Hpy).
    destruct (IH j1 y (merge_group_disjoint _ _ _ Hab Hd) Hy Hsy) as (j2 & z & Hj2 & Hz & Hsz & Hpz).
    exists j2, z. split; [lia|]. split; [exact Hz|]. split; [exact Hsz|].
    exact (same_picks_trans _ _ _ _ Hpz Hpy).
Qed.

(** ** The policies *)

Lemma merge_group_impl : forall (s1 s2 : mitem -> mitem -> Prop) q q',
  (forall x y, s1 x y -> s2 x y) -> merge_group s1 q q' -> merge_group s2 q q'.
Proof.
  intros s1 s2 q q' Hs (pre & x & post & J & R & m & H1 & H2 & H3 & H4 & H5).
  exists pre, x, post, J, R, m. repeat split; try assumption.
  eapply Forall_impl; [|exact H3]. exact (Hs x).
Qed.

Lemma star_impl : forall A (R1 R2 : A -> A -> Prop) a b,
  (forall x y, R1 x y -> R2 x y) -> star R1 a b -> star R2 a b.
Proof.
  intros A R1 R2 a b H Hs. induction Hs as [a|a b c Hab _ IH]; [constructor|].
  econstructor; [apply H; exact Hab|exact IH].
Qed.

(** A policy that merges only states of one depth is a policy of the theorems. *)
Theorem policy_one_depth_ok : forall pol, policy_one_depth pol -> policy_ok pol.
Proof.
  intros pol H n q. apply (star_impl _ merge_one_depth); [|exact (H n q)].
  intros x y. apply merge_group_impl. auto.
Qed.

(** Never merging is a policy of the theorems. *)
Theorem no_merge_ok : policy_ok no_merge.
Proof. intros n q. constructor. Qed.

Lemma merge_group_cons_lift : forall same a q q',
  merge_group same q q' -> merge_group same (a :: q) (a :: q').
Proof.
  intros same a q q' (pre & x & post & J & R & m & H1 & H2 & H3 & H4 & H5).
  exists (a :: pre), x, post, J, R, m. subst. repeat split; assumption.
Qed.

Lemma star_merge_cons_lift : forall same a q q',
  star (merge_group same) q q' -> star (merge_group same) (a :: q) (a :: q').
Proof.
  intros same a q q' H. induction H as [q|q1 q2 q3 H _ IH]; [constructor|].
  econstructor; [apply merge_group_cons_lift; exact H|exact IH].
Qed.

Lemma partition_interleave : forall A (f : A -> bool) l J R,
  partition f l = (J, R) -> interleave J R l /\ Forall (fun y => f y = true) J.
Proof.
  intros A f l. induction l as [|a l IH]; intros J R H.
  - simpl in H. inversion H; subst. split; constructor.
  - simpl in H. destruct (partition f l) as [J0 R0] eqn:E.
    destruct (IH J0 R0 eq_refl) as [H1 H2].
    destruct (f a) eqn:Ea; inversion H; subst.
    + split; [constructor; exact H1|constructor; assumption].
    + split; [constructor; exact H1|exact H2].
Qed.

Lemma merge_groups_fuel_one_depth : forall f q, star merge_one_depth q (merge_groups_fuel f q).
Proof.
  induction f as [|f IH]; intros q; [constructor|].
  destruct q as [|x rest]; [constructor|]. cbn [merge_groups_fuel].
  destruct (partition (same_group x) rest) as [J R] eqn:E.
  destruct (partition_interleave _ _ _ _ _ E) as [Hil HJ].
  destruct (merge_states (map istate (x :: J))) as [m|] eqn:Hm.
  - econstructor; [|apply star_merge_cons_lift; apply IH].
    exists [], x, rest, J, R, m. repeat split; try assumption.
    eapply Forall_impl; [|exact HJ]. intros y Hy. unfold same_group in Hy.
    apply andb_true_iff in Hy as [Hy _]. apply Nat.eqb_eq in Hy. exact Hy.
  - apply star_merge_cons_lift. apply IH.
Qed.

(** The policy of the reference merges only states of one depth. *)
Theorem level_policy_one_depth : policy_one_depth level_policy.
Proof.
  intros n q. unfold level_policy. destruct (one_depth q); [|constructor].
  apply merge_groups_fuel_one_depth.
Qed.

Corollary level_policy_ok : policy_ok level_policy.
Proof. apply policy_one_depth_ok. exact level_policy_one_depth. Qed.

(** ** The successors *)

Lemma in_msucc : forall ask x y, In y (msucc ask x) <->
  idepth y = S (idepth x) /\ In (istate y) (mexpand_state (istate x)) /\ mkeep ask (istate y) = true.
Proof.
  intros ask x [d m]. unfold msucc. rewrite in_map_iff. split.
  - intros (m' & E & H). inversion E; subst. apply filter_In in H. simpl. tauto.
  - intros (Hd & Hm & Hk). simpl in *. subst d. exists m. split; [reflexivity|].
    apply filter_In. auto.
Qed.

Lemma ForallOrdPairs_filter : forall A (R : A -> A -> Prop) (f : A -> bool) l,
  ForallOrdPairs R l -> ForallOrdPairs R (filter f l).
Proof.
  intros A R f l H. induction H as [|a l Hf _ IH]; simpl; [constructor|].
  destruct (f a); [|exact IH]. constructor; [|exact IH].
  rewrite Forall_forall in *. intros y Hy. apply filter_In in Hy. exact (Hf y (proj1 Hy)).
Qed.

Lemma msucc_disjoint : forall ask x, ForallOrdPairs idisj (msucc ask x).
Proof.
  intros ask x. unfold msucc. apply ForallOrdPairs_map. simpl.
  apply ForallOrdPairs_filter. apply mexpand_disjoint.
Qed.

Lemma msucc_pc : forall ask x y V, In y (msucc ask x) -> sat V (mpc (istate y)) -> sat V (mpc (istate x)).
Proof.
  intros ask x y V Hy Hs. apply in_msucc in Hy as (_ & Hy & _).
  exact (mexpand_state_pc _ _ V Hy Hs).
Qed.

Lemma mkeep_sat : forall ask m V, oracle_sound ask -> sat V (mpc m) -> mkeep ask m = true.
Proof.
  intros ask m V [_ Hf] Hs. unfold mkeep.
  destruct (ask (mpc m)) as [[|]|] eqn:Ha; try reflexivity.
  exfalso. exact (Hf _ Ha V Hs).
Qed.

(** One iteration before the merges keeps the pending path conditions pairwise disjoint. *)
Lemma bfs_step_disjoint : forall ask q,
  ForallOrdPairs idisj q -> ForallOrdPairs idisj (bfs_step (msucc ask) q).
Proof.
  intros ask [|a q] Hd; simpl; [constructor|].
  inversion Hd as [|a0 q0 Hf Hq]; subst. rewrite Forall_forall in Hf.
  apply ForallOrdPairs_app; [exact Hq|apply msucc_disjoint|].
  intros b c Hb Hc V Hsb Hsc. exact (Hf b Hb V (msucc_pc _ _ _ V Hc Hsc) Hsb).
Qed.

(** The pending path conditions are pairwise disjoint at every iteration, whatever the
    policy merged. *)
Theorem mqueue_disjoint : forall pol ask l n,
  policy_ok pol -> ForallOrdPairs idisj l ->
  ForallOrdPairs idisj (mqueue pol (fun k => msucc (ask k)) n l).
Proof.
  intros pol ask l n Hp Hl. induction n as [|n IH]; [exact Hl|].
  rewrite mqueue_S. apply (star_merge_disjoint _ _ _ (Hp n _)). apply bfs_step_disjoint. exact IH.
Qed.

Lemma minit_disjoint : forall p, ForallOrdPairs idisj (minit p).
Proof. intros p. repeat constructor. Qed.

(** ** Soundness: every pending state stands for reachable states *)

(** Under every valuation that satisfies its path condition, the merged state stands for a
    state reachable from [⟨true, id, p⟩]. *)
Definition mreach (p : stmt) (i : mitem) : Prop :=
  forall V, sat V (mpc (istate i)) -> exists t, sym_steps (sym_init p) t /\ vequiv V (istate i) t.

Lemma mreach_merge : forall p x J m,
  Forall (mreach p) (x :: J) -> merge_states (map istate (x :: J)) = Some m -> mreach p (idepth x, m).
Proof.
  intros p x J m HF Hm V Hs. simpl in Hs |- *.
  destruct (merge_states_sel _ _ V Hm Hs) as [i [Hi [Hsi Hpi]]].
  apply in_map_iff in Hi as [y [<- Hy]]. rewrite Forall_forall in HF.
  destruct (HF y Hy V Hsi) as [t [Ht Hv]]. exists t. split; [exact Ht|].
  exact (vequiv_picks _ _ _ _ Hpi Hs Hsi Hv).
Qed.

Lemma mreach_succ : forall p ask x y, mreach p x -> In y (msucc ask x) -> mreach p y.
Proof.
  intros p ask x y Hx Hy V Hs.
  destruct (Hx V (msucc_pc _ _ _ V Hy Hs)) as [t [Ht Hv]].
  apply in_msucc in Hy as (_ & Hy & _).
  destruct (Forall2_In_l (mexpand_vequiv_congr _ _ _ Hv) Hy) as [t' [Ht' Hv']].
  exists t'. split; [|exact Hv'].
  apply (star_trans _ _ _ t); [exact Ht|]. apply star_one. apply expand_state_correct. exact Ht'.
Qed.

Lemma mreach_init : forall p, Forall (mreach p) (minit p).
Proof.
  intros p. constructor; [|constructor]. intros V _. exists (sym_init p).
  split; [constructor|exact (vequiv_lift V (sym_init p))].
Qed.

(** Every pending state, at every iteration, stands for reachable states. *)
Lemma mqueue_reach : forall pol ask p n,
  policy_ok pol -> Forall (mreach p) (mqueue pol (fun k => msucc (ask k)) n (minit p)).
Proof.
  intros pol ask p n Hp. induction n as [|n IH]; [apply mreach_init|].
  rewrite mqueue_S. apply (star_merge_forall _ _ _ _ (mreach_merge p) (Hp n _)).
  destruct (mqueue pol (fun k => msucc (ask k)) n (minit p)) as [|a q] eqn:E; simpl; [constructor|].
  inversion IH as [|a0 q0 Ha Hq]; subst. apply Forall_app. split; [exact Hq|].
  apply Forall_forall. intros y Hy. exact (mreach_succ p _ a y Ha Hy).
Qed.

(** ** Completeness: what stands for a state is eventually expanded *)

(** Fairness with merges: a pending state whose path condition holds under [V] is, at that
    iteration or later, stood for under [V] by the state taken from the front (a merge puts
    the merged state at the place of its group's oldest state, so the index of what stands
    for it never grows, and every iteration removes the front). *)
Lemma mtrack : forall pol ask l, policy_ok pol -> ForallOrdPairs idisj l ->
  forall j n x V, nth_error (mqueue pol (fun k => msucc (ask k)) n l) j = Some x ->
  sat V (mpc (istate x)) ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ sat V (mpc (istate y)) /\
    same_picks V (istate y) (istate x).
Proof.
  intros pol ask l Hp Hl j. induction j as [j IH] using lt_wf_ind. intros n x V Hj Hs.
  destruct (mqueue pol (fun k => msucc (ask k)) n l) as [|a q] eqn:E; [destruct j; discriminate|].
  destruct j as [|j].
  - simpl in Hj. inversion Hj; subst. exists n, x. split; [lia|].
    split; [apply mnth_some; eauto|]. split; [exact Hs|apply same_picks_refl].
  - simpl in Hj.
    assert (nth_error (bfs_step (msucc (ask n)) (a :: q)) j = Some x) as Hj'.
    { simpl. rewrite nth_error_app1; [exact Hj|]. apply nth_error_Some. congruence. }
    pose proof (mqueue_disjoint pol ask l n Hp Hl) as Hd. rewrite E in Hd.
    destruct (star_merge_track _ _ _ V j x (Hp n _) (bfs_step_disjoint _ _ Hd) Hj' Hs)
      as (j1 & y & Hj1 & Hy & Hsy & Hpy).
    assert (nth_error (mqueue pol (fun k => msucc (ask k)) (S n) l) j1 = Some y) as Hy'
      by (rewrite mqueue_S, E; exact Hy).
    destruct (IH j1 ltac:(lia) (S n) y V Hy' Hsy) as (n' & z & Hn' & Hz & Hsz & Hpz).
    exists n', z. split; [lia|]. split; [exact Hz|]. split; [exact Hsz|].
    exact (same_picks_trans _ _ _ _ Hpz Hpy).
Qed.

(** Lemma 3.1 for the queue: under [V], what stands for [t] is followed by what stands for
    each state reachable from [t] under [V], whatever the policy merged, for a sound oracle. *)
Lemma msearch_follow : forall pol ask l, policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  ForallOrdPairs idisj l ->
  forall V t t', sym_steps t t' -> sat V (pc t') ->
  forall n x, msearch pol ask l n = Some x -> vequiv V (istate x) t ->
  exists n' y, n <= n' /\ msearch pol ask l n' = Some y /\ vequiv V (istate y) t'.
Proof.
  intros pol ask l Hp Ho Hl V t t' H. induction H as [a|a b c Hab Hbc IH]; intros Hs n x Hx Hv.
  - exists n, x. auto.
  - assert (sat V (pc b)) as Hsb by exact (sym_steps_sat_mono b c V Hbc Hs).
    apply expand_state_correct in Hab.
    destruct (Forall2_In_r (mexpand_vequiv_congr _ _ _ Hv) Hab) as [m' [Hm' Hv']].
    assert (sat V (mpc m')) as Hsm by exact (proj2 (vequiv_sat _ _ _ Hv') Hsb).
    apply mnth_some in Hx as [rest Hq].
    assert (In (S (idepth x), m') (msucc (ask n) x)) as Hy.
    { apply in_msucc. simpl. split; [reflexivity|]. split; [exact Hm'|].
      exact (mkeep_sat _ _ V (Ho n) Hsm). }
    apply In_nth_error in Hy as [k Hk].
    assert (nth_error (bfs_step (msucc (ask n)) (x :: rest)) (length rest + k) = Some (S (idepth x), m'))
      as Hk'.
    { simpl. rewrite nth_error_app2 by lia. replace (length rest + k - length rest) with k by lia.
      exact Hk. }
    pose proof (mqueue_disjoint pol ask l n Hp Hl) as Hd. rewrite Hq in Hd.
    destruct (star_merge_track _ _ _ V _ _ (Hp n _) (bfs_step_disjoint _ _ Hd) Hk' Hsm)
      as (j1 & z & _ & Hz & Hsz & Hpz).
    assert (nth_error (mqueue pol (fun k => msucc (ask k)) (S n) l) j1 = Some z) as Hz'
      by (rewrite mqueue_S, Hq; exact Hz).
    destruct (mtrack pol ask l Hp Hl j1 (S n) z V Hz' Hsz) as (n1 & w & Hn1 & Hw & Hsw & Hpw).
    assert (vequiv V (istate w) b) as Hvw.
    { apply (vequiv_picks _ _ (istate z)); [exact Hpw|exact Hsw|exact Hsz|].
      apply (vequiv_picks _ _ m'); [exact Hpz|exact Hsz|exact Hsm|exact Hv']. }
    destruct (IH Hs n1 w Hw Hvw) as (n2 & u & Hn2 & Hu & Hvu).
    exists n2, u. split; [lia|]. auto.
Qed.

(** ** The run stream of the engine with merging: Lemma 3.1, Theorems 3.2-3.4 *)

Lemma mgrun_some : forall pol md ask p n m,
  mgrun pol md ask p n = Some m <->
  exists d, msearch pol (fun k => prune_oracle md (ask k)) (minit p) n = Some (d, m).
Proof.
  intros pol md ask p n m. unfold mgrun.
  destruct (msearch pol (fun k => prune_oracle md (ask k)) (minit p) n) as [[d m']|]; simpl.
  - split; [intros H; inversion H; subst; eauto|]. intros [d' H]. inversion H. reflexivity.
  - split; [discriminate|]. intros [d' H]. discriminate.
Qed.

Lemma mgrun_none : forall pol md ask p n,
  mgrun pol md ask p n = None <->
  mqueue pol (fun k => msucc (prune_oracle md (ask k))) n (minit p) = [].
Proof.
  intros pol md ask p n. rewrite <- (mnth_none mitem pol (fun k => msucc (prune_oracle md (ask k)))).
  unfold mgrun, msearch. destruct (mnth _ _ _ n); simpl; split; congruence.
Qed.

Lemma msearch_reach : forall pol ask p n x,
  policy_ok pol -> msearch pol ask (minit p) n = Some x -> mreach p x.
Proof.
  intros pol ask p n x Hp H. apply mnth_some in H as [rest H].
  pose proof (mqueue_reach pol ask p n Hp) as HF. rewrite H in HF.
  inversion HF as [|y q Hx _]; subst. exact Hx.
Qed.

(** Theorem 3.2 with merging, any policy of the theorems, any oracle: every state of the
    stream stands, under every valuation satisfying its path condition, for a state
    reachable from [⟨true, id, p⟩]. *)
Theorem mgrun_sound : forall pol md ask p n m,
  policy_ok pol -> mgrun pol md ask p n = Some m ->
  forall V, sat V (mpc m) -> exists t, sym_steps (sym_init p) t /\ vequiv V m t.
Proof.
  intros pol md ask p n m Hp H. apply mgrun_some in H as [d H].
  exact (msearch_reach pol _ p n (d, m) Hp H).
Qed.

(** The same for concrete states (the merged search adds none): every concrete state a state
    of the stream represents is represented by a reachable symbolic state, hence reachable. *)
Theorem mgrun_concretizes_sound : forall pol md ask p n m V c,
  policy_ok pol -> mgrun pol md ask p n = Some m -> mconcretizes V m c ->
  (exists t, sym_steps (sym_init p) t /\ concretizes V t c) /\ CReach p c.
Proof.
  intros pol md ask p n m V c Hp H Hc.
  pose proof (proj1 (mconcretizes_iff V m c) Hc) as [Hs _].
  destruct (mgrun_sound pol md ask p n m Hp H V Hs) as [t [Ht Hv]].
  assert (concretizes V t c) as Htc by exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc).
  split; [eauto|]. apply Reach_correct. exists V, t. auto.
Qed.

(** Theorem 3.3 with merging: after the first [None], only [None]. *)
Theorem mgrun_sound_termination : forall pol md ask p n,
  policy_ok pol -> mgrun pol md ask p n = None -> forall k, n <= k -> mgrun pol md ask p k = None.
Proof.
  intros pol md ask p n Hp H k Hk. apply mgrun_none. apply mgrun_none in H.
  exact (mqueue_nil pol _ (minit p) n Hp H k Hk).
Qed.

(** Lemma 3.1 with merging, sound oracle: a state of the stream that stands for [t] under [V]
    is followed by one that stands for [t'] under [V], for every [t'] reachable from [t] whose
    path condition [V] satisfies. *)
Theorem mgrun_successors : forall pol md ask p V t t' n m,
  policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  mgrun pol md ask p n = Some m -> vequiv V m t -> sym_steps t t' -> sat V (pc t') ->
  exists n' m', n <= n' /\ mgrun pol md ask p n' = Some m' /\ vequiv V m' t'.
Proof.
  intros pol md ask p V t t' n m Hp Ho H Hv Ht Hs. apply mgrun_some in H as [d H].
  destruct (msearch_follow pol _ (minit p) Hp (fun i => prune_oracle_sound md (ask i) (Ho i))
              (minit_disjoint p) V t t' Ht Hs n (d, m) H Hv) as (n' & [d' m'] & Hn & H' & Hv').
  exists n', m'. split; [exact Hn|]. split; [apply mgrun_some; eauto|exact Hv'].
Qed.

(** Theorem 3.4 with merging, sound oracle: every reachable state is stood for, under each
    valuation satisfying its path condition, by a state of the stream. *)
Theorem mgrun_complete : forall pol md ask p t V,
  policy_ok pol -> (forall i, oracle_sound (ask i)) ->
  sym_steps (sym_init p) t -> sat V (pc t) ->
  exists n m, mgrun pol md ask p n = Some m /\ vequiv V m t.
Proof.
  intros pol md ask p t V Hp Ho Ht Hs.
  assert (mgrun pol md ask p 0 = Some (lift (sym_init p))) as H0 by reflexivity.
  destruct (mgrun_successors pol md ask p V (sym_init p) t 0 _ Hp Ho H0 (vequiv_lift V _) Ht Hs)
    as (n & m & _ & Hn & Hv).
  eauto.
Qed.

(** The same for concrete states: every reachable concrete state is represented by a state
    of the stream. *)
Corollary mgrun_complete_concrete : forall pol md ask p c,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> CReach p c ->
  exists n m V, mgrun pol md ask p n = Some m /\ mconcretizes V m c.
Proof.
  intros pol md ask p c Hp Ho H. apply Reach_correct in H as (V & t & Ht & Hc).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgrun_complete pol md ask p t V Hp Ho Ht Hs) as (n & m & Hn & Hv).
  exists n, m, V. split; [exact Hn|]. exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc).
Qed.

(** A stream that ends has shown, before its end, what stands for every reachable state
    under each valuation satisfying its path condition (sound oracle). *)
Theorem mgrun_finished_explored : forall pol md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgrun pol md ask p n = None ->
  forall t V, sym_steps (sym_init p) t -> sat V (pc t) ->
  exists k m, k < n /\ mgrun pol md ask p k = Some m /\ vequiv V m t.
Proof.
  intros pol md ask p n Hp Ho Hn t V Ht Hs.
  destruct (mgrun_complete pol md ask p t V Hp Ho Ht Hs) as (k & m & Hk & Hv).
  exists k, m. split; [|auto].
  destruct (Nat.lt_ge_cases k n) as [Hlt|Hge]; [exact Hlt|].
  rewrite (mgrun_sound_termination pol md ask p n Hp Hn k Hge) in Hk. discriminate.
Qed.
