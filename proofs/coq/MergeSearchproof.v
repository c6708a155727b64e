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

Lemma merge_split_perm : forall A (pre : list A) x post J R,
  interleave J R post -> Permutation (pre ++ x :: post) ((x :: J) ++ (pre ++ R)).
Proof.
  intros A pre x post J R Hil.
  apply perm_trans with (x :: pre ++ post); [apply Permutation_sym, Permutation_middle|].
  simpl. constructor. apply perm_trans with (pre ++ J ++ R).
  - apply Permutation_app_head. apply interleave_perm. exact Hil.
  - apply Permutation_app_swap_app.
Qed.

(** A merge seen up to order: the group [x :: J] and the rest [Rest] before, the merge and
    the same rest after. *)
Lemma merge_group_perm : forall same q q', merge_group same q q' ->
  exists x J Rest m, Permutation q ((x :: J) ++ Rest) /\ Permutation q' ((idepth x, m) :: Rest) /\
    merge_states (map istate (x :: J)) = Some m.
Proof.
  intros same q q' (pre & x & post & J & R & m & -> & Hil & _ & Hm & ->).
  exists x, J, (pre ++ R), m. split; [exact (merge_split_perm _ pre x post J R Hil)|].
  split; [apply Permutation_sym, Permutation_middle|exact Hm].
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
  apply (ForallOrdPairs_perm _ _ _ _ idisj_sym (merge_split_perm _ pre x post J R Hil)) in Hd.
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
      apply (ForallOrdPairs_perm _ _ _ _ idisj_sym (merge_split_perm _ pre x0 post J R Hil)) in Hd.
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

(** ** The bug finder with merging: classification *)

Lemma vequiv_prog : forall V m t, vequiv V m t -> mprog m = prog t.
Proof. intros V [[phi G] p] [[psi ss] q] (_ & _ & _ & E). exact E. Qed.

(** An error state of the stream stands, under every valuation satisfying its path
    condition, for a potential bug, and every concrete state it represents is a bug. *)
Lemma mgrun_error_valid : forall pol md ask p n m,
  policy_ok pol -> mgrun pol md ask p n = Some m -> is_error (mprog m) = true ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c).
Proof.
  intros pol md ask p n m Hp H He.
  assert (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) as Hpot.
  { intros V Hs. destruct (mgrun_sound pol md ask p n m Hp H V Hs) as [t [Ht Hv]].
    exists t. split; [|exact Hv]. split; [exact Ht|]. rewrite <- (vequiv_prog _ _ _ Hv). exact He. }
  split; [exact Hpot|]. intros V c Hc.
  pose proof (proj1 (mconcretizes_iff V m c) Hc) as [Hs _].
  destruct (Hpot V Hs) as [t [Ht Hv]].
  apply (potential_bug_valid p t Ht). exists V. exact (proj1 (vequiv_concretizes _ _ _ _ Hv) Hc).
Qed.

Lemma mgfind_finished : forall pol E md ask p n,
  mgfind pol E md ask p n = MFinished <-> mgrun pol md ask p n = None.
Proof.
  intros pol E md ask p n. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m|]; [|split; reflexivity]. split; [|discriminate].
  destruct (is_error (mprog m)); [|discriminate].
  destruct (in_dec _ _ _); [discriminate|]. destruct (ask n (mpc m)) as [[|]|]; discriminate.
Qed.

Lemma mgfind_bug : forall pol E md ask p n m, mgfind pol E md ask p n = MBugFound m ->
  mgrun pol md ask p n = Some m /\ is_error (mprog m) = true /\ ask n (mpc m) = Some true /\
  ~ In (mkey_of E n m) (mseen pol E md ask p n).
Proof.
  intros pol E md ask p n m. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m'|]; [|discriminate].
  destruct (is_error (mprog m')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (mpc m')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma mgfind_unknown : forall pol E md ask p n m, mgfind pol E md ask p n = MUnknown m ->
  mgrun pol md ask p n = Some m /\ is_error (mprog m) = true /\ ask n (mpc m) = None.
Proof.
  intros pol E md ask p n m. unfold mgfind, mclassify.
  destruct (mgrun pol md ask p n) as [m'|]; [|discriminate].
  destruct (is_error (mprog m')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (mpc m')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma mgfind_error_state : forall pol E md ask p n m,
  mgrun pol md ask p n = Some m -> is_error (mprog m) = true ->
  mgfind pol E md ask p n = MBugFound m \/ mgfind pol E md ask p n = MUnknown m \/
  ask n (mpc m) = Some false \/ In (mkey_of E n m) (mseen pol E md ask p n).
Proof.
  intros pol E md ask p n m Hr He. unfold mgfind, mclassify. rewrite Hr, He.
  destruct (in_dec _ _ _) as [Hi|Hi]; [auto|].
  destruct (ask n (mpc m)) as [[|]|]; auto.
Qed.

Lemma mseen_S : forall pol E md ask p n,
  mseen pol E md ask p (S n) =
  match mgfind pol E md ask p n with
  | MBugFound m => if all_bugs md then mkey_of E n m :: mseen pol E md ask p n else mseen pol E md ask p n
  | _ => mseen pol E md ask p n
  end.
Proof. reflexivity. Qed.

Lemma mseen_incl : forall pol E md ask p n k,
  In k (mseen pol E md ask p n) -> In k (mseen pol E md ask p (S n)).
Proof.
  intros pol E md ask p n k H. rewrite mseen_S.
  destruct (mgfind pol E md ask p n); try exact H. destruct (all_bugs md); [right|]; exact H.
Qed.

(** The keys seen before [n] are those of the bugs reported before [n], with [--all-bugs]. *)
Theorem mseen_spec : forall pol E md ask p n k,
  In k (mseen pol E md ask p n) <->
  all_bugs md = true /\ exists j m, j < n /\ mgfind pol E md ask p j = MBugFound m /\ mkey_of E j m = k.
Proof.
  intros pol E md ask p n; induction n as [|n IH]; intros k.
  - simpl. split; [intros []|]. intros (_ & j & m & Hj & _). lia.
  - split.
    + rewrite mseen_S. intros H.
      destruct (mgfind pol E md ask p n) eqn:Hg;
        try (apply IH in H; destruct H as (Ha & j & m' & Hj & H1 & H2);
             split; [exact Ha|exists j, m'; split; [lia|auto]]).
      destruct (all_bugs md) eqn:Ha.
      * destruct H as [<-|H].
        -- split; [reflexivity|]. exists n, m. auto.
        -- apply IH in H. destruct H as (_ & j & m' & Hj & H1 & H2).
           split; [reflexivity|]. exists j, m'. split; [lia|auto].
      * apply IH in H. destruct H as (Ha' & _). discriminate.
    + intros (Ha & j & m & Hj & H1 & H2).
      destruct (Nat.eq_dec j n) as [->|Hne].
      * rewrite mseen_S, H1, Ha. left. exact H2.
      * apply mseen_incl. apply IH. split; [exact Ha|]. exists j, m. split; [lia|auto].
Qed.

(** ** Theorems 3.5-3.7 with merging *)

(** Theorem 3.5 with merging, any policy of the theorems and any oracle: every [BugFound m]
    stands, under every valuation satisfying its path condition, for a potential bug; every
    concrete state it represents is a bug; the oracle answered "satisfiable" about it. *)
Theorem mgfind_relative_soundness : forall pol E md ask p n m,
  policy_ok pol -> mgfind pol E md ask p n = MBugFound m ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c) /\ ask n (mpc m) = Some true.
Proof.
  intros pol E md ask p n m Hp H. destruct (mgfind_bug pol E md ask p n m H) as (H1 & H2 & H3 & _).
  destruct (mgrun_error_valid pol md ask p n m Hp H1 H2) as [Ha Hb]. auto.
Qed.

(** With a sound oracle, a [BugFound m] represents at least one concrete state, and each is
    a bug of [p]. *)
Theorem mgfind_bug_sat : forall pol E md ask p n m,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgfind pol E md ask p n = MBugFound m ->
  (exists V, sat V (mpc m)) /\ exists V c, mconcretizes V m c /\ IsBug p c.
Proof.
  intros pol E md ask p n m Hp Ho H. destruct (Ho n) as [Ht _].
  destruct (mgfind_relative_soundness pol E md ask p n m Hp H) as (_ & Hv & Ha).
  destruct (Ht _ Ha) as [V HV]. split; [exists V; exact HV|].
  assert (mconcretizes V m (mcompose V (mst m), mprog m)) as Hc.
  { apply mconcretizes_iff. split; [exact HV|]. split; [apply store_eq_refl|reflexivity]. }
  exists V, (mcompose V (mst m), mprog m). split; [exact Hc|exact (Hv V _ Hc)].
Qed.

(** An error state recorded undecided stands for potential bugs; every concrete state it
    represents is a bug. *)
Theorem mgfind_unknown_valid : forall pol E md ask p n m,
  policy_ok pol -> mgfind pol E md ask p n = MUnknown m ->
  (forall V, sat V (mpc m) -> exists t, potential_bug p t /\ vequiv V m t) /\
  (forall V c, mconcretizes V m c -> IsBug p c).
Proof.
  intros pol E md ask p n m Hp H. destruct (mgfind_unknown pol E md ask p n m H) as (H1 & H2 & _).
  exact (mgrun_error_valid pol md ask p n m Hp H1 H2).
Qed.

(** Theorem 3.7 with merging: after [Finished], only [Finished]. *)
Theorem mgfind_sound_termination : forall pol E md ask p n,
  policy_ok pol -> mgfind pol E md ask p n = MFinished ->
  forall k, n <= k -> mgfind pol E md ask p k = MFinished.
Proof.
  intros pol E md ask p n Hp H k Hk. apply mgfind_finished. apply mgfind_finished in H.
  exact (mgrun_sound_termination pol md ask p n Hp H k Hk).
Qed.

(** Theorem 3.6 with merging, sound oracle: every concrete bug is represented by an error
    state of the stream, which is reported, or recorded undecided, or whose error was
    reported before (only with [--all-bugs]). *)
Theorem mgfind_relative_completeness : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n m V, mconcretizes V m c /\ mgrun pol md ask p n = Some m /\
    (mgfind pol E md ask p n = MBugFound m \/ mgfind pol E md ask p n = MUnknown m \/
     (all_bugs md = true /\
      exists j m', j < n /\ mgfind pol E md ask p j = MBugFound m' /\ mkey_of E j m' = mkey_of E n m)).
Proof.
  intros pol E md ask p c Hp Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & [V Hc]).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgrun_complete pol md ask p t V Hp Ho Hr Hs) as (n & m & Hn & Hv).
  assert (is_error (mprog m) = true) as Hem by (rewrite (vequiv_prog _ _ _ Hv); exact He).
  exists n, m, V. split; [exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc)|]. split; [exact Hn|].
  destruct (mgfind_error_state pol E md ask p n m Hn Hem) as [H|[H|[H|H]]]; auto.
  - exfalso. exact (proj2 (Ho n) _ H V (proj2 (vequiv_sat _ _ _ Hv) Hs)).
  - right; right. apply mseen_spec in H. exact H.
Qed.

(** ** Per-error reporting and deciding oracles *)

(** With an oracle that decides, the error of every reachable error state with a
    satisfiable path condition is reported: a state of the stream at some [k] stands for it
    under [V], and a bug with the same key is reported at some [n <= k]. *)
Theorem mgfind_every_error_reported : forall pol E md ask p t V,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> potential_bug p t -> sat V (pc t) ->
  exists k m n m', mgrun pol md ask p k = Some m /\ vequiv V m t /\ n <= k /\
    mgfind pol E md ask p n = MBugFound m' /\ mkey_of E n m' = mkey_of E k m.
Proof.
  intros pol E md ask p t V Hp HD [Hr He] Hs.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (mgrun_complete pol md ask p t V Hp Ho Hr Hs) as (k & m & Hk & Hv).
  assert (is_error (mprog m) = true) as Hem by (rewrite (vequiv_prog _ _ _ Hv); exact He).
  exists k, m.
  destruct (mgfind_error_state pol E md ask p k m Hk Hem) as [H|[H|[H|H]]].
  - exists k, m. auto.
  - exfalso. destruct (mgfind_unknown pol E md ask p k m H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - exfalso. exact (proj2 (Ho k) _ H V (proj2 (vequiv_sat _ _ _ Hv) Hs)).
  - apply mseen_spec in H. destruct H as (_ & j & m' & Hj & H1 & H2).
    exists j, m'. repeat split; [exact Hk|exact Hv|lia|exact H1|exact H2].
Qed.

(** The same for concrete bugs. *)
Corollary mgfind_every_bug_error_reported : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> IsBug p c ->
  exists k m V n m', mgrun pol md ask p k = Some m /\ mconcretizes V m c /\ n <= k /\
    mgfind pol E md ask p n = MBugFound m' /\ mkey_of E n m' = mkey_of E k m.
Proof.
  intros pol E md ask p c Hp HD Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & Ht & [V Hc]).
  assert (sat V (pc t)) as Hs by (destruct t as [[phi ss] q]; exact (proj1 Hc)).
  destruct (mgfind_every_error_reported pol E md ask p t V Hp HD Ht Hs)
    as (k & m & n & m' & Hk & Hv & Hn & H1 & H2).
  exists k, m, V, n, m'. split; [exact Hk|]. split; [exact (proj2 (vequiv_concretizes _ _ _ _ Hv) Hc)|].
  auto.
Qed.

(** Without [--all-bugs] and with an oracle that decides, every concrete bug is represented
    by a state the stream reports. *)
Theorem mgfind_complete_first : forall pol E md ask p c,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> all_bugs md = false -> IsBug p c ->
  exists n m V, mgfind pol E md ask p n = MBugFound m /\ mconcretizes V m c.
Proof.
  intros pol E md ask p c Hp HD Hm Hbug.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (mgfind_relative_completeness pol E md ask p c Hp Ho Hbug)
    as (n & m & V & Hc & Hn & [H|[H|[H _]]]).
  - exists n, m, V. auto.
  - exfalso. destruct (mgfind_unknown pol E md ask p n m H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - congruence.
Qed.

(** With [--all-bugs], each error is reported at most once. *)
Theorem mgfind_report_once : forall pol E md ask p n n' m m',
  all_bugs md = true ->
  mgfind pol E md ask p n = MBugFound m -> mgfind pol E md ask p n' = MBugFound m' ->
  mkey_of E n m = mkey_of E n' m' -> n = n'.
Proof.
  assert (forall pol E md ask p n n' m m', all_bugs md = true -> n < n' ->
            mgfind pol E md ask p n = MBugFound m -> mgfind pol E md ask p n' = MBugFound m' ->
            mkey_of E n m = mkey_of E n' m' -> False) as G.
  { intros pol E md ask p n n' m m' Ha Hlt H H' Hk.
    destruct (mgfind_bug pol E md ask p n' m' H') as (_ & _ & _ & Hn). apply Hn.
    apply mseen_spec. split; [exact Ha|]. exists n, m. auto. }
  intros pol E md ask p n n' m m' Ha H H' Hk.
  destruct (Nat.lt_trichotomy n n') as [Hlt|[Heq|Hgt]]; [|exact Heq|].
  - exfalso. exact (G pol E md ask p n n' m m' Ha Hlt H H' Hk).
  - exfalso. exact (G pol E md ask p n' n m' m Ha Hgt H' H (eq_sym Hk)).
Qed.

(** ** The verdict with merging *)

Lemma in_mgprefix : forall pol E md ask p n g,
  In g (mgprefix pol E md ask p n) <-> exists j, j < n /\ mgfind pol E md ask p j = g.
Proof.
  intros pol E md ask p n g. unfold mgprefix. rewrite in_map_iff. split.
  - intros (j & H1 & H2). apply in_seq in H2. exists j. split; [lia|exact H1].
  - intros (j & H1 & H2). exists j. split; [exact H2|]. apply in_seq. lia.
Qed.

Lemma existsb_mgprefix : forall pol E md ask p n f,
  existsb f (mgprefix pol E md ask p n) = true <->
  exists j, j < n /\ f (mgfind pol E md ask p j) = true.
Proof.
  intros pol E md ask p n f. rewrite existsb_exists. split.
  - intros (g & H1 & H2). apply in_mgprefix in H1. destruct H1 as (j & Hj & <-). eauto.
  - intros (j & Hj & H). exists (mgfind pol E md ask p j). split; [|exact H].
    apply in_mgprefix. eauto.
Qed.

Lemma not_existsb_mgprefix : forall pol E md ask p n f,
  existsb f (mgprefix pol E md ask p n) = false ->
  forall j, j < n -> f (mgfind pol E md ask p j) = false.
Proof.
  intros pol E md ask p n f H j Hj. destruct (f (mgfind pol E md ask p j)) eqn:Hf; [|reflexivity].
  rewrite <- H. symmetry. apply existsb_mgprefix. eauto.
Qed.

Lemma mverdict_bug_iff : forall l, mverdict_of l = VBug <-> existsb m_is_bugfound l = true.
Proof.
  intros l. unfold mverdict_of. destruct (existsb m_is_bugfound l); [split; reflexivity|].
  split; [|discriminate].
  destruct (existsb m_is_unknown l); [discriminate|]. destruct (existsb m_is_finished l); discriminate.
Qed.

Lemma mverdict_safe_iff : forall l, mverdict_of l = VSafe <->
  existsb m_is_bugfound l = false /\ existsb m_is_unknown l = false /\ existsb m_is_finished l = true.
Proof.
  intros l. unfold mverdict_of.
  destruct (existsb m_is_bugfound l), (existsb m_is_unknown l), (existsb m_is_finished l);
    split; try discriminate; try (intros (H1 & H2 & H3); discriminate); auto.
Qed.

(** A [bug] verdict means a bug, for any sound oracle. *)
Theorem mgverdict_bug : forall pol E md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgverdict pol E md ask p n = VBug -> has_bug p.
Proof.
  intros pol E md ask p n Hp Ho H. apply mverdict_bug_iff, existsb_mgprefix in H.
  destruct H as (j & _ & H). destruct (mgfind pol E md ask p j) as [| |m|] eqn:Hg; try discriminate.
  destruct (mgfind_bug_sat pol E md ask p j m Hp Ho Hg) as (_ & V & c & _ & Hc). exists c. exact Hc.
Qed.

(** Sound termination of the verdict with merging: a [safe] verdict (the stream reached
    [Finished], reported no bug and recorded no undecided error state) means no bug, for any
    sound oracle, in every mode, pruning included: every path was covered. *)
Theorem mgverdict_safe : forall pol E md ask p n,
  policy_ok pol -> (forall i, oracle_sound (ask i)) -> mgverdict pol E md ask p n = VSafe -> ~ has_bug p.
Proof.
  intros pol E md ask p n Hp Ho H [c Hc]. apply mverdict_safe_iff in H. destruct H as (Hb & Hu & Hf).
  apply existsb_mgprefix in Hf. destruct Hf as (f & Hfn & Hf).
  assert (mgfind pol E md ask p f = MFinished) as Hfin
    by (destruct (mgfind pol E md ask p f); simpl in Hf; congruence).
  apply mgfind_finished in Hfin.
  pose proof (not_existsb_mgprefix pol E md ask p n _ Hb) as Hb'.
  pose proof (not_existsb_mgprefix pol E md ask p n _ Hu) as Hu'.
  destruct (mgfind_relative_completeness pol E md ask p c Hp Ho Hc) as (k & m & V & _ & Hk & Hcase).
  assert (k < f) as Hkf.
  { destruct (Nat.lt_ge_cases k f) as [Hlt|Hge]; [exact Hlt|].
    rewrite (mgrun_sound_termination pol md ask p f Hp Hfin k Hge) in Hk. discriminate. }
  destruct Hcase as [H|[H|(_ & j & m' & Hj & H & _)]].
  - specialize (Hb' k ltac:(lia)). rewrite H in Hb'. discriminate.
  - specialize (Hu' k ltac:(lia)). rewrite H in Hu'. discriminate.
  - specialize (Hb' j ltac:(lia)). rewrite H in Hb'. discriminate.
Qed.

(** With an oracle that decides, a program without bugs whose exploration ends gets the
    verdict [safe] once the prefix contains [Finished]. *)
Theorem mgverdict_safe_complete : forall pol E md ask p f n,
  policy_ok pol -> (forall i, oracle_decides (ask i)) -> ~ has_bug p ->
  mgfind pol E md ask p f = MFinished -> f < n -> mgverdict pol E md ask p n = VSafe.
Proof.
  intros pol E md ask p f n Hp HD Hno Hf Hfn.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  apply mverdict_safe_iff. split; [|split].
  - destruct (existsb m_is_bugfound (mgprefix pol E md ask p n)) eqn:H; [|reflexivity].
    exfalso. apply Hno. apply (mgverdict_bug pol E md ask p n Hp Ho). apply mverdict_bug_iff. exact H.
  - destruct (existsb m_is_unknown (mgprefix pol E md ask p n)) eqn:H; [|reflexivity].
    exfalso. apply existsb_mgprefix in H. destruct H as (j & _ & H).
    destruct (mgfind pol E md ask p j) as [|m| |] eqn:Hg; try discriminate.
    destruct (mgfind_unknown pol E md ask p j m Hg) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - apply existsb_mgprefix. exists f. rewrite Hf. auto.
Qed.

(** Theorem 3.8 with merging (T-soundness and T-completeness): with an oracle that decides,
    some prefix of the stream gets the verdict [bug] iff the program has a bug, in every
    mode and for every policy of the theorems. *)
Theorem mgverdict_T_sound_complete : forall pol E md ask p,
  policy_ok pol -> (forall i, oracle_decides (ask i)) ->
  (exists n, mgverdict pol E md ask p n = VBug) <-> has_bug p.
Proof.
  intros pol E md ask p Hp Hd. split.
  - intros [n H]. exact (mgverdict_bug pol E md ask p n Hp (decides_sound ask Hd) H).
  - intros [c Hc].
    destruct (mgfind_every_bug_error_reported pol E md ask p c Hp Hd Hc)
      as (k & m & V & n & m' & _ & _ & _ & H & _).
    exists (S n). apply mverdict_bug_iff, existsb_mgprefix. exists n. rewrite H. auto.
Qed.

(** Theorem 3.8 with merging, on the status stream: with an oracle that decides, the stream
    reports a bug with a satisfiable path condition iff the program has a bug. *)
Theorem mgfind_T_sound_complete : forall pol E md ask p,
  policy_ok pol -> (forall i, oracle_decides (ask i)) ->
  (exists n m, mgfind pol E md ask p n = MBugFound m /\ exists V, sat V (mpc m)) <-> has_bug p.
Proof.
  intros pol E md ask p Hp Hd. split.
  - intros (n & m & H & _).
    destruct (mgfind_bug_sat pol E md ask p n m Hp (decides_sound ask Hd) H) as (_ & V & c & _ & Hc).
    exists c. exact Hc.
  - intros [c Hc].
    destruct (mgfind_every_bug_error_reported pol E md ask p c Hp Hd Hc)
      as (k & m & V & n & m' & _ & _ & _ & H & _).
    exists n, m'. split; [exact H|].
    exact (proj1 (mgfind_bug_sat pol E md ask p n m' Hp (decides_sound ask Hd) H)).
Qed.

(** ** Without merges, the merged search is the engine's search *)

(** [m] is [t] with every entry a leaf. *)
Definition mlifted (m : mstate) (t : sym_state) : Prop :=
  let '(phi, G, p) := m in
  let '(psi, ss, q) := t in
  phi = psi /\ (forall x, msv G x = Leaf (ssv ss x)) /\ (forall a, msa G a = Leaf (ssa ss a)) /\ p = q.

Lemma mlifted_vequiv : forall m t, mlifted m t -> forall V, vequiv V m t.
Proof.
  intros [[phi G] p] [[psi ss] q] (E1 & Hv & Ha & E2) V. subst.
  split; [reflexivity|]. split; [|split; [|reflexivity]].
  - intro x. rewrite Hv. reflexivity.
  - intro a. rewrite Ha. reflexivity.
Qed.

Lemma gasubst_leaf : forall G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  (forall a, gasubst G a = Leaf (asubst ss a)) /\ (forall t, garsubst G t = Leaf (arsubst ss t)).
Proof.
  intros G ss Hv Ha. apply aexpr_arr_mut; intros; simpl;
    rewrite ?Hv, ?Ha; repeat match goal with H : _ = Leaf _ |- _ => rewrite H end; reflexivity.
Qed.

Lemma gbsubst_leaf : forall G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  forall b, gbsubst G b = Leaf (bsubst ss b).
Proof.
  intros G ss Hv Ha. destruct (gasubst_leaf G ss Hv Ha) as [E _].
  induction b; simpl; rewrite ?E; repeat match goal with H : _ = Leaf _ |- _ => rewrite H end;
    reflexivity.
Qed.

Lemma merr_succs_lifted : forall can F phi G ss,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  Forall2 mlifted (merr_succs can F phi G) (err_succs can F phi ss).
Proof.
  intros can F phi G ss Hv Ha. unfold merr_succs, err_succs.
  destruct (can KDiv), (can KIdx); simpl; repeat constructor; auto.
Qed.

Lemma mexpand_lifted : forall phi G ss p,
  (forall x, msv G x = Leaf (ssv ss x)) -> (forall a, msa G a = Leaf (ssa ss a)) ->
  Forall2 mlifted (mexpand phi G p) (expand phi ss p).
Proof.
  intros phi G ss p Hv Ha. destruct (gasubst_leaf G ss Hv Ha) as [Ea _].
  pose proof (gbsubst_leaf G ss Hv Ha) as Eb.
  revert phi. induction p; intros phi.
  - constructor.
  - constructor.
  - simpl. rewrite Ea. constructor; [|apply merr_succs_lifted; assumption].
    simpl. split; [reflexivity|]. split; [|split; [exact Ha|reflexivity]].
    intro y. destruct (String.eqb x y); [reflexivity|apply Hv].
  - simpl. rewrite !Ea. constructor; [|apply merr_succs_lifted; assumption].
    simpl. split; [reflexivity|]. split; [exact Hv|]. split; [|reflexivity].
    intro b. destruct (String.eqb a b); [rewrite Ha; reflexivity|apply Ha].
  - destruct (stmt_eq_dec p1 Skip) as [-> | Hne].
    + simpl. repeat constructor; auto.
    + rewrite mexpand_seq, expand_seq by exact Hne.
      specialize (IHp1 phi). induction IHp1 as [|[[a1 a2] a3] [[b1 b2] b3] l1 l2 Hx _ IH];
        simpl; constructor; [|exact IH].
      destruct Hx as (E1 & E2 & E3 & E4). subst. simpl. auto.
  - simpl. rewrite Eb. constructor; [|constructor; [|apply merr_succs_lifted; assumption]];
      simpl; auto.
  - repeat constructor; auto.
  - simpl. rewrite Eb. constructor; [|apply merr_succs_lifted; assumption]. simpl. auto.
Qed.

Lemma mlifted_pc : forall m t, mlifted m t -> mpc m = pc t.
Proof. intros [[phi G] p] [[psi ss] q] (E & _). exact E. Qed.

Lemma Forall2_filter : forall A B (R : A -> B -> Prop) (f : A -> bool) (g : B -> bool) l1 l2,
  Forall2 R l1 l2 -> (forall a b, R a b -> f a = g b) -> Forall2 R (filter f l1) (filter g l2).
Proof.
  intros A B R f g l1 l2 H Hfg. induction H as [|a b l1 l2 Hab _ IH]; simpl; [constructor|].
  rewrite (Hfg a b Hab). destruct (g b); [constructor; assumption|exact IH].
Qed.

Local Notation ilifted := (fun (x : mitem) (t : sym_state) => mlifted (istate x) t).

Lemma msucc_lifted : forall ask x t,
  mlifted (istate x) t -> Forall2 ilifted (msucc ask x) (psucc ask t).
Proof.
  intros ask [d [[phi G] p]] [[psi ss] q] Hl. pose proof Hl as (E1 & Hv & Ha & E2). simpl in *. subst.
  unfold msucc, psucc. simpl.
  assert (Forall2 mlifted (filter (mkeep ask) (mexpand psi G q)) (filter (keep ask) (expand psi ss q)))
    as H.
  { apply Forall2_filter; [apply mexpand_lifted; assumption|].
    intros a b Hab. unfold mkeep, keep. rewrite (mlifted_pc _ _ Hab). reflexivity. }
  induction H as [|a b l1 l2 Hab _ IH]; simpl; constructor; [exact Hab|exact IH].
Qed.

Lemma bfs_step_lifted : forall ask q1 q2,
  Forall2 ilifted q1 q2 -> Forall2 ilifted (bfs_step (msucc ask) q1) (bfs_step (psucc ask) q2).
Proof.
  intros ask q1 q2 H. destruct H as [|x t q l Hxt Hql]; simpl; [constructor|].
  apply Forall2_app; [exact Hql|apply msucc_lifted; exact Hxt].
Qed.

Lemma mqueue_no_merge : forall ask p n,
  Forall2 ilifted (mqueue no_merge (fun k => msucc (ask k)) n (minit p))
                  (tqueue (fun k => psucc (ask k)) n (init p)).
Proof.
  intros ask p n. induction n as [|n IH].
  - simpl. constructor; [|constructor]. simpl. split; [reflexivity|]. auto.
  - rewrite mqueue_S, tqueue_S_r. apply bfs_step_lifted. exact IH.
Qed.

(** The merged search with the policy that never merges is, state by state, the engine's
    search [Engine.grun] (every entry a leaf): the model of the search with merging extends
    the engine's model, which is its case [no_merge]. *)
Theorem mgrun_no_merge : forall md ask p n,
  (forall m, mgrun no_merge md ask p n = Some m -> exists t, grun md ask p n = Some t /\ mlifted m t) /\
  (forall t, grun md ask p n = Some t -> exists m, mgrun no_merge md ask p n = Some m /\ mlifted m t).
Proof.
  intros md ask p n.
  pose proof (mqueue_no_merge (fun k => prune_oracle md (ask k)) p n) as H.
  unfold mgrun, msearch, mnth, grun, prun, tnth.
  destruct H as [|x t q l Hxt _]; simpl.
  - split; intros ? Hc; discriminate.
  - split; intros ? Hc; inversion Hc; subst; eauto.
Qed.

(** The reference's iteration is its stream's. *)
Lemma ref_mstep_queue : forall p n,
  mqueue level_policy (fun _ => msucc never) (S n) (minit p) =
  ref_mstep (mqueue level_policy (fun _ => msucc never) n (minit p)).
Proof. reflexivity. Qed.
